package io.rdmarepl.applier.apply;

import java.util.function.IntFunction;

/**
 * Parallel apply ({@code apply.workers} above 1), as the apply thread sees it: it cuts its log into segments (runs of
 * complete transactions from the front of what is not yet dispatched), hands each to an idle {@link ApplyWorker}, and
 * takes the outcomes back in segment order. A segment whose write set meets one still in flight starts only once that
 * one sent its rows or committed ({@link SegmentWriteSet#meet}); every segment commits after the one before it
 * ({@link CommitOrder}).
 * A segment stays in the apply thread's log until it committed, so after any failure the apply thread can apply it
 * again itself, alone.
 *
 * <pre>
 *  log:  | seg 1 (worker 2) | seg 2 (worker 1) | seg 3 (worker 3) | not dispatched ... | open tx
 *        |<---------------- dispatchedTransactions ------------->|
 *  in flight, oldest first: worker 2, worker 1, worker 3
 * </pre>
 */
final class ParallelApply implements AutoCloseable {
    private final ApplyWorker[] workers;
    private final ApplyWorker[] inFlight;
    private final CommitOrder order;
    private final SegmentWriteSet writeSets;
    private final ApplierMetrics metrics;
    private int head;
    private int inFlightCount;
    private long lastSegment;
    private int dispatchedTransactions;
    private long lastDispatchNs;

    /**
     * @param order  shared with the workers
     * @param worker makes worker {@code i} (its own replica session), which is started here
     */
    ParallelApply(int count, CommitOrder order, SegmentWriteSet writeSets, ApplierMetrics metrics,
                  IntFunction<ApplyWorker> worker) {
        this.order = order;
        this.metrics = metrics;
        this.writeSets = writeSets;
        this.workers = new ApplyWorker[count];
        this.inFlight = new ApplyWorker[count];
        for (int i = 0; i < count; i++) {
            workers[i] = worker.apply(i + 1);
        }
        for (ApplyWorker w : workers) {
            w.team(workers);
            w.start();
        }
    }

    int workers() {
        return workers.length;
    }

    /** Transactions at the front of the log that are in flight. */
    int dispatchedTransactions() {
        return dispatchedTransactions;
    }

    int inFlight() {
        return inFlightCount;
    }

    long lastDispatchNs() {
        return lastDispatchNs;
    }

    boolean hasIdleWorker() {
        return inFlightCount < workers.length;
    }

    /**
     * Dispatches the first {@code count} transactions of {@code log} not yet dispatched as the next segment.
     *
     * @return null when a worker took them; else why they must run alone (nothing dispatched)
     */
    String dispatch(GroupLog log, int count, int ringEpoch, long nowNs) {
        ApplyWorker worker = idleWorker();
        String alone = writeSets.compute(log, dispatchedTransactions, count, worker.writeSet());
        if (alone != null) {
            return alone;
        }
        long afterCommit = 0;
        long afterSent = 0;
        for (int k = 0; k < inFlightCount; k++) {
            ApplyWorker earlier = inFlight[(head + k) % inFlight.length];
            switch (SegmentWriteSet.meet(worker.writeSet(), earlier.writeSet())) {
                case SegmentWriteSet.AFTER_COMMIT -> afterCommit = Math.max(afterCommit, earlier.segmentNo());
                case SegmentWriteSet.AFTER_SENT -> afterSent = Math.max(afterSent, earlier.segmentNo());
                default -> { }
            }
        }
        worker.assign(log, dispatchedTransactions, count, ++lastSegment, afterCommit, afterSent, ringEpoch);
        metrics.segmentDispatched(afterCommit > 0 || afterSent > 0);
        inFlight[(head + inFlightCount) % inFlight.length] = worker;
        inFlightCount++;
        dispatchedTransactions += count;
        lastDispatchNs = nowNs;
        return null;
    }

    /** The oldest segment in flight when it is finished, else null. */
    ApplyWorker oldestFinished() {
        if (inFlightCount == 0) {
            return null;
        }
        ApplyWorker oldest = inFlight[head];
        return oldest.done() ? oldest : null;
    }

    /** Whether every segment in flight is finished (after a failure: the later ones gave up, or are about to). */
    boolean allFinished() {
        for (int k = 0; k < inFlightCount; k++) {
            if (!inFlight[(head + k) % inFlight.length].done()) {
                return false;
            }
        }
        return true;
    }

    /** The apply thread took the oldest segment's outcome (committed: its transactions were consumed from the log). */
    void releaseOldest() {
        ApplyWorker oldest = inFlight[head];
        inFlight[head] = null;
        head = (head + 1) % inFlight.length;
        inFlightCount--;
        dispatchedTransactions -= oldest.transactions();
        oldest.release();
    }

    /**
     * Forgets every finished segment in flight after a failure: none of them committed, their transactions are still
     * at the front of the log, and numbering starts again.
     */
    void releaseAllAfterFailure() {
        while (inFlightCount > 0) {
            releaseOldest();
        }
        dispatchedTransactions = 0;
        order.restartAfter(lastSegment);
    }

    private ApplyWorker idleWorker() {
        for (ApplyWorker w : workers) {
            if (w.idle() && !isInFlight(w)) {
                return w;
            }
        }
        throw new IllegalStateException("no idle apply worker (check hasIdleWorker first)");
    }

    private boolean isInFlight(ApplyWorker w) {
        for (int k = 0; k < inFlightCount; k++) {
            if (inFlight[(head + k) % inFlight.length] == w) {
                return true;
            }
        }
        return false;
    }

    /** Every worker stands down ({@link ApplyWorker#standDown}); nothing may be in flight. */
    void standDown() {
        if (inFlightCount > 0) {
            throw new IllegalStateException(inFlightCount + " segment(s) in flight");
        }
        for (ApplyWorker w : workers) {
            w.standDown();
        }
    }

    @Override
    public void close() {
        for (ApplyWorker w : workers) {
            w.stop();
        }
    }
}
