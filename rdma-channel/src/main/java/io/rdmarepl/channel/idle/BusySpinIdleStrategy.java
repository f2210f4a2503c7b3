package io.rdmarepl.channel.idle;

/** Never gives up the core: lowest latency, one core burnt. For benchmarks and dedicated hosts. */
public final class BusySpinIdleStrategy implements IdleStrategy {
    @Override
    public void idle(int workCount) {
        if (workCount == 0) {
            Thread.onSpinWait();
        }
    }

    @Override
    public void reset() {
    }
}
