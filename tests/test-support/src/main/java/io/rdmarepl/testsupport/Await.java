package io.rdmarepl.testsupport;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/** Every asynchronous assertion has a deadline: "the replica holds 3 rows within 10 s". */
public final class Await {
    private Await() {
    }

    /** Polls {@code probe} until {@code done} accepts its value; fails naming what was awaited and the last value. */
    public static <T> T until(String what, Duration timeout, Callable<T> probe, Predicate<T> done) {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        T last = null;
        Exception lastError = null;
        while (true) {
            try {
                last = probe.call();
                lastError = null;
                if (done.test(last)) {
                    return last;
                }
            } catch (Exception e) {
                lastError = e;
            }
            if (System.nanoTime() - deadlineNs > 0) {
                throw new AssertionError(what + " within " + timeout.toMillis() + " ms; last value: " + last
                        + (lastError == null ? "" : ", last error: " + lastError), lastError);
            }
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
        }
    }

    public static <T> T equalTo(String what, Duration timeout, Callable<T> probe, T expected) {
        return until(what + " is " + expected, timeout, probe, v -> Objects.equals(v, expected));
    }
}
