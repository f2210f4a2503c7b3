package io.rdmarepl.coordinator.detect;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The hold a watching thread (the probe, the postmaster reads) honours between its looks ({@link FailureDetector#hold}):
 * while held it parks instead of looking; a resume wakes it at once.
 */
final class WatchHold {
    /** A held thread looks again after this even without a resume: a lost unpark costs no more. */
    private static final long PARK_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private volatile boolean held;

    void hold() {
        held = true;
    }

    /** Ends the hold and wakes {@code watcher}, so that its next look starts now. */
    void resume(Thread watcher) {
        held = false;
        LockSupport.unpark(watcher);
    }

    /** On the watching thread, before a look: parks while held; true when it did (the caller looks again at the hold). */
    boolean parkedWhileHeld() {
        if (!held) {
            return false;
        }
        LockSupport.parkNanos(PARK_NS);
        return true;
    }
}
