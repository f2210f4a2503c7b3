package io.rdmarepl.testsupport;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Every asynchronous assertion has a deadline: "the replica holds 3 rows within 10000 ms". A test waits for the
 * condition itself, never for a time that usually suffices; the failure names what was awaited and what was seen last.
 * {@link #holds} is the other half: something that must not happen, watched for the whole of a window.
 *
 * <p>A condition or probe that throws an {@link Exception} (a server still starting) has not come true yet: the wait
 * goes on, and the last exception is in the failure. An {@link Error}, such as a failed assertion inside the
 * condition, ends the wait at once.
 *
 * <p>The one copy for every module's tests, the end-to-end tests, the demo and the failover benchmark's rig (an
 * {@link AssertionError} there is a failed trial). Polls start at 1 ms
 * (a condition that is nearly true costs almost nothing) and back off to {@value #MAX_POLL_MS} ms (a probe that queries a
 * server is not run hundreds of times a second).
 */
public final class Await {
    private static final long FIRST_POLL_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long MAX_POLL_MS = 10;

    private Await() {
    }

    /** Something a test waits for; it may throw while it cannot be told yet. */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    /**
     * Polls {@code condition} until it is true.
     *
     * @return how long it took, in ms
     * @throws AssertionError "expected {@code what} within N ms" at the deadline
     */
    public static long until(String what, Duration timeout, Condition condition) {
        return until(what, timeout, condition, () -> null);
    }

    /**
     * {@link #until(String, Duration, Condition)}, with what the failure reports besides: {@code seen} is read once, at
     * the deadline ("expected the replica caught up within 120000 ms; seen: applier {state=..., applied_lsn=...}").
     */
    public static long until(String what, Duration timeout, Condition condition, Supplier<?> seen) {
        long startNs = System.nanoTime();
        long deadlineNs = startNs + timeout.toNanos();
        long pollNs = FIRST_POLL_NS;
        Exception lastError = null;
        while (true) {
            try {
                if (condition.holds()) {
                    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
                }
                lastError = null;
            } catch (Exception e) {
                lastError = e;
            }
            if (System.nanoTime() - deadlineNs > 0) {
                Object state = seen.get();
                throw new AssertionError("expected " + what + " within " + timeout.toMillis() + " ms"
                        + (state == null ? "" : "; seen: " + state) + (lastError == null ? "" : "; last error: " + lastError), lastError);
            }
            pollNs = pause(pollNs, what);
        }
    }

    /**
     * Polls {@code probe} until {@code done} accepts its value. A probe that throws counts as "not yet" (a server
     * still starting); the failure carries the last value and the last error.
     *
     * @return the accepted value
     */
    public static <T> T until(String what, Duration timeout, Callable<T> probe, Predicate<T> done) {
        return until(what, timeout, FIRST_POLL_NS, TimeUnit.MILLISECONDS.toNanos(MAX_POLL_MS), probe, done);
    }

    /**
     * Like {@link #until(String, Duration, Callable, Predicate)}, polling every {@code every}: for a probe that costs the
     * system under test (a request to a process whose timing is being measured), not to be run hundreds of times a second.
     */
    public static <T> T until(String what, Duration timeout, Duration every, Callable<T> probe, Predicate<T> done) {
        return until(what, timeout, every.toNanos(), every.toNanos(), probe, done);
    }

    private static <T> T until(String what, Duration timeout, long firstPollNs, long maxPollNs, Callable<T> probe, Predicate<T> done) {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        long pollNs = firstPollNs;
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
                throw new AssertionError("expected " + what + " within " + timeout.toMillis() + " ms; last value: " + last
                        + (lastError == null ? "" : ", last error: " + lastError), lastError);
            }
            pollNs = pause(pollNs, maxPollNs, what);
        }
    }

    /** {@link #until(String, Duration, Callable, Predicate)} for one expected value. */
    public static <T> T equalTo(String what, Duration timeout, Callable<T> probe, T expected) {
        return until(what + " is " + expected, timeout, probe, v -> Objects.equals(v, expected));
    }

    /**
     * Checks {@code condition} over and over for the whole {@code window} and fails the first time it is false: for
     * what must not happen ("no failover while the stalls stay under the thresholds"), which no event can confirm.
     * Stronger than sleeping through the window and looking once at its end.
     */
    public static void holds(String what, Duration window, Condition condition) {
        long startNs = System.nanoTime();
        long endNs = startNs + window.toNanos();
        long pollNs = FIRST_POLL_NS;
        while (true) {
            boolean last = System.nanoTime() - endNs >= 0;
            check(what, window, condition, startNs);
            if (last) {
                return;
            }
            pollNs = pause(Math.min(pollNs, Math.max(0, endNs - System.nanoTime())), what);
        }
    }

    /** Here, an exception is an answer: the condition could not be shown to hold. */
    private static void check(String what, Duration window, Condition condition, long startNs) {
        boolean holds;
        Exception error = null;
        try {
            holds = condition.holds();
        } catch (Exception e) {
            holds = false;
            error = e;
        }
        if (!holds) {
            throw new AssertionError("expected " + what + " for " + window.toMillis() + " ms, but not after "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs) + " ms" + (error == null ? "" : ": " + error), error);
        }
    }

    /** Parks for {@code pollNs}; returns the next, longer pause. Interrupted: fails, and the flag stays set. */
    private static long pause(long pollNs, String what) {
        return pause(pollNs, TimeUnit.MILLISECONDS.toNanos(MAX_POLL_MS), what);
    }

    /** Parks for {@code pollNs}; returns the next pause, doubled up to {@code maxPollNs}. */
    private static long pause(long pollNs, long maxPollNs, String what) {
        LockSupport.parkNanos(pollNs);
        if (Thread.currentThread().isInterrupted()) {
            throw new AssertionError("interrupted while waiting for " + what);
        }
        return Math.min(Math.max(FIRST_POLL_NS, pollNs * 2), maxPollNs);
    }
}
