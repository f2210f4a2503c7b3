package io.rdmarepl.channel.idle;

import java.util.concurrent.locks.LockSupport;

/**
 * Spins for a budget, then yields, then parks for exponentially longer periods up to a bound, so
 * a busy ring is read within nanoseconds and an idle one costs (almost) no CPU.
 */
public final class BackoffIdleStrategy implements IdleStrategy {
    private final long maxSpins;
    private final long maxYields;
    private final long minParkNs;
    private final long maxParkNs;
    private long spins;
    private long yields;
    private long parkNs;

    /**
     * @param maxSpins  polls to spin through before yielding
     * @param maxYields yields before parking
     * @param minParkNs first park period
     * @param maxParkNs longest park period, which bounds the wake-up latency of an idle reader
     */
    public BackoffIdleStrategy(long maxSpins, long maxYields, long minParkNs, long maxParkNs) {
        if (maxSpins < 0 || maxYields < 0 || minParkNs < 1 || maxParkNs < minParkNs) {
            throw new IllegalArgumentException("back-off needs spins >= 0, yields >= 0, 1 <= minParkNs <= maxParkNs: spins="
                    + maxSpins + " yields=" + maxYields + " minParkNs=" + minParkNs + " maxParkNs=" + maxParkNs);
        }
        this.maxSpins = maxSpins;
        this.maxYields = maxYields;
        this.minParkNs = minParkNs;
        this.maxParkNs = maxParkNs;
        this.parkNs = minParkNs;
    }

    /** 10k spins, 100 yields, then parks from 1 µs up to 1 ms. */
    public static BackoffIdleStrategy defaults() {
        return new BackoffIdleStrategy(10_000, 100, 1_000, 1_000_000);
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            reset();
        } else if (spins < maxSpins) {
            spins++;
            Thread.onSpinWait();
        } else if (yields < maxYields) {
            yields++;
            Thread.yield();
        } else {
            LockSupport.parkNanos(parkNs);
            parkNs = parkNs > maxParkNs >> 1 ? maxParkNs : parkNs << 1;
        }
    }

    @Override
    public void reset() {
        spins = 0;
        yields = 0;
        parkNs = minParkNs;
    }
}
