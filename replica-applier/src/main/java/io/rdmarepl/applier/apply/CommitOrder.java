package io.rdmarepl.applier.apply;

import java.util.concurrent.TimeUnit;

/**
 * The order parallel segments commit in: segment {@code n} (numbered from 1 in source order) commits only once
 * segment {@code n - 1} has, and a segment that failed or gave up takes every later one with it, so whatever is
 * committed is always a prefix of the source history. Shared by the apply thread and the workers; a monitor, as a
 * wait here is measured in round trips, not nanoseconds.
 */
final class CommitOrder {
    /** What a wait ended with. */
    enum Wait { DONE, ABANDONED, STILL_WAITING }

    /** Every segment up to this one has committed. */
    private long committed;
    /** Segments from this one on must not commit. */
    private long abandonedFrom = Long.MAX_VALUE;

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
        long deadline = System.nanoTime() + timeoutNs;
        while (true) {
            if (self >= abandonedFrom) {
                return Wait.ABANDONED;
            }
            if (committed >= upTo) {
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
