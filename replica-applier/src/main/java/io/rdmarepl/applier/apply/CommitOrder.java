package io.rdmarepl.applier.apply;

import java.util.concurrent.TimeUnit;

/**
 * The order parallel segments commit in: segment {@code n} (numbered from 1 in source order) commits only once
 * segment {@code n - 1} has, and a segment that failed or gave up takes every later one with it, so whatever is
 * committed is always a prefix of the source history. It also tells which segments have sent all their rows (they
 * hold their row locks and wait for their turn). Shared by the apply thread and the workers; a monitor, as a wait
 * here is measured in round trips, not nanoseconds.
 */
final class CommitOrder {
    /** More than the most segments ever in flight ({@code apply.workers} is at most 64). */
    private static final int SENT_SLOTS = 128;

    /** What a wait ended with. */
    enum Wait { DONE, ABANDONED, STILL_WAITING }

    /** Every segment up to this one has committed. */
    private long committed;
    /** Segments from this one on must not commit. */
    private long abandonedFrom = Long.MAX_VALUE;
    /** Segment {@code n} has sent all its rows when {@code sent[n % SENT_SLOTS] == n} (or it committed). */
    private final long[] sent = new long[SENT_SLOTS];

    /** Starts numbering again after {@code segment} (every segment before it is committed or forgotten). */
    synchronized void restartAfter(long segment) {
        committed = segment;
        abandonedFrom = Long.MAX_VALUE;
        notifyAll();
    }

    synchronized void committed(long segment) {
        if (segment != committed + 1) {
            throw new IllegalStateException("segment " + segment + " committed after segment " + committed);
        }
        committed = segment;
        notifyAll();
    }

    /** Segment {@code segment} has sent all its rows and now waits for its turn. */
    synchronized void sent(long segment) {
        sent[(int) (segment % SENT_SLOTS)] = segment;
        notifyAll();
    }

    /** Segment {@code segment} will not commit: neither may any after it. */
    synchronized void abandonFrom(long segment) {
        abandonedFrom = Math.min(abandonedFrom, segment);
        notifyAll();
    }

    /**
     * Waits up to {@code timeoutNs} until segment {@code upTo} has committed, on behalf of segment {@code self}.
     *
     * @return DONE, ABANDONED when {@code self} may no longer commit, or STILL_WAITING when the time ran out
     */
    synchronized Wait await(long upTo, long self, long timeoutNs) throws InterruptedException {
        return await(upTo, self, timeoutNs, false);
    }

    /**
     * Waits up to {@code timeoutNs} until segment {@code segment} has sent all its rows (or committed), on behalf of
     * segment {@code self}; as {@link #await}.
     */
    synchronized Wait awaitSent(long segment, long self, long timeoutNs) throws InterruptedException {
        return await(segment, self, timeoutNs, true);
    }

    private Wait await(long upTo, long self, long timeoutNs, boolean sentEnough) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNs;
        while (true) {
            if (self >= abandonedFrom) {
                return Wait.ABANDONED;
            }
            if (committed >= upTo || sentEnough && sent[(int) (upTo % SENT_SLOTS)] == upTo) {
                return Wait.DONE;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return Wait.STILL_WAITING;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }
}
