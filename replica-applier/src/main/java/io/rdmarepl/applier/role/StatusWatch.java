package io.rdmarepl.applier.role;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code GET /status/watch}: the /status document once it no longer says what the caller last read, held until then
 * (a long poll). The coordinator watches each standby's heartbeats this way: the applier answers the moment its ring's
 * silence passes the coordinator's threshold, a frame ends a silence, or its state changes, and otherwise once per
 * wait. Read every few milliseconds instead, /status cost the coordinator and each applier a tenth of a core while
 * nothing happened.
 *
 * <p>Query: {@code silence_ms} (the threshold: silent once the last frame is older), {@code seen} ({@code heard} or
 * {@code silent}: what the caller's last answer said), {@code state} (the state it said), {@code wait_ms} (the longest
 * hold, at most {@value #MAX_WAIT_MS}).
 */
public final class StatusWatch {
    public static final long MAX_WAIT_MS = 10_000;
    /**
     * While silent, how often the hold looks for a frame at first: a silence that ends soon was a hiccup, which the
     * coordinator must hear of before it takes it for a dead primary. A tenth of the silence's age after that, up to
     * {@link #STATE_RECHECK_NS}: a standby whose shipper is gone for hours does not wake 500 times a second.
     */
    private static final long SILENT_RECHECK_NS = TimeUnit.MILLISECONDS.toNanos(2);
    /** While frames come, how often the hold looks at the state at least (a pause, a retry, a drain). */
    private static final long STATE_RECHECK_NS = TimeUnit.MILLISECONDS.toNanos(50);

    /** What the watch reads of the applier, now. */
    public interface Subject {
        /** The state as /status names it. */
        String state();

        /** Since the ring last delivered a frame, in ms; Long.MAX_VALUE when there is no ring. */
        long lastMessageAgeMs();
    }

    /**
     * What the caller last read, and how long it will wait for a change ({@code wait_ms}, at most {@value #MAX_WAIT_MS}).
     *
     * @param seenSilent whether the caller's last answer said the ring was silent ({@code seen=silent})
     */
    public record Query(long silenceMs, boolean seenSilent, String seenState, long waitMs) {
    }

    private StatusWatch() {
    }

    /** Returns once {@code subject} no longer matches what {@code query} saw, or its wait is over. */
    public static void await(Subject subject, Query query) throws InterruptedException {
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(query.waitMs());
        while (true) {
            long ageMs = subject.lastMessageAgeMs();
            boolean silent = ageMs > query.silenceMs();
            long leftNs = deadlineNs - System.nanoTime();
            if (silent != query.seenSilent() || !subject.state().equals(query.seenState()) || leftNs <= 0) {
                return;
            }
            LockSupport.parkNanos(Math.min(nextLookNs(ageMs, query), leftNs));
            if (Thread.interrupted()) {
                throw new InterruptedException("the status watch was interrupted");
            }
        }
    }

    /** How long the hold sleeps before it looks again. */
    private static long nextLookNs(long ageMs, Query query) {
        if (ageMs == Long.MAX_VALUE) {
            return STATE_RECHECK_NS; // no ring: only an activation changes anything
        }
        if (query.seenSilent()) {
            return Math.max(SILENT_RECHECK_NS, Math.min(TimeUnit.MILLISECONDS.toNanos(ageMs) / 10, STATE_RECHECK_NS));
        }
        // frames come: wake when the silence would pass the threshold, had none come since
        return Math.min(TimeUnit.MILLISECONDS.toNanos(query.silenceMs() + 1 - ageMs), STATE_RECHECK_NS);
    }
}
