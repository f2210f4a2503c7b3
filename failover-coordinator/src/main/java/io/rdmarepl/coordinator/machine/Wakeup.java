package io.rdmarepl.coordinator.machine;

import java.util.concurrent.locks.LockSupport;

/**
 * Asks the coordinator's decision thread for its next cycle now rather than at the end of its interval. Made before
 * the coordinator, so the detector it is handed to can exist first; before the thread is bound, a no-op.
 */
public final class Wakeup implements Runnable {
    private volatile Thread decider;

    void bind(Thread thread) {
        this.decider = thread;
    }

    /** Any thread. */
    @Override
    public void run() {
        Thread thread = decider;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }
}
