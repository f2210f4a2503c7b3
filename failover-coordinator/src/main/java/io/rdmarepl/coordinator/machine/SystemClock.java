package io.rdmarepl.coordinator.machine;

import java.util.concurrent.locks.LockSupport;

/** The JVM's clocks: what a running coordinator decides by. */
public enum SystemClock implements CoordinatorClock {
    INSTANCE;

    @Override
    public long nowMs() {
        return System.currentTimeMillis();
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public void parkNanos(long nanos) {
        LockSupport.parkNanos(nanos);
    }
}
