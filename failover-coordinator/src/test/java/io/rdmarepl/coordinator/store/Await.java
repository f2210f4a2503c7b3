package io.rdmarepl.coordinator.store;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Every asynchronous assertion has a deadline: "coordinator b is the leader within 10000 ms". */
final class Await {
    private Await() {
    }

    static void until(String what, Duration timeout, BooleanSupplier done) {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadlineNs > 0) {
                throw new AssertionError(what + " within " + timeout.toMillis() + " ms");
            }
            LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
        }
    }
}
