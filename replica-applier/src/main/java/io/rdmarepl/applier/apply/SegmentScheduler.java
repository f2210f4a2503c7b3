package io.rdmarepl.applier.apply;

import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When the apply thread cuts its log into segments for {@link ParallelApply}'s workers, and what it does with their
 * outcomes ({@code apply.workers} above 1; with {@code apply.copy.workers}, an initial copy's chunks only). It
 * dispatches while a worker is idle and the transactions not yet dispatched fill a segment, the ring is idle, or they
 * waited {@code apply.group.max.ms}. It takes the outcomes back oldest first, each committed one consumed as if applied
 * on the apply thread. A segment that must run alone waits until nothing is in flight and then runs on the apply thread
 * ({@link Host#applyHere}); so does everything from a segment that did not commit.
 */
final class SegmentScheduler implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SegmentScheduler.class);

    /** The apply thread, as the scheduler calls it back. */
    interface Host {
        /** Applies the first {@code count} transactions of the log on the apply thread (pausing on a failure). */
        int applyHere(long nowNs, int count);

        /** Consumes the transactions a segment committed from the front of the log. */
        void committed(GroupApplier.Outcome outcome, long startNs);

        /** Paused after a failure: nothing is dispatched until the retry. */
        boolean paused();

        /** The ring epoch stored with the applied position. */
        int epoch();
    }

    private final ParallelApply parallel;
    private final GroupLog log;
    private final ApplierMetrics metrics;
    private final Host host;
    /**
     * A segment holds at most a group's transactions shared among twice the workers: small enough that several are in
     * flight and two of them seldom meet, large enough that its commit and applied position cost little per transaction.
     */
    private final int segmentMaxTransactions;
    private final int groupMaxTransactions;
    private final long groupMaxBytes;
    private final long groupMaxNs;
    /**
     * Only an initial copy's chunks go to the workers ({@code apply.workers} 1, {@code apply.copy.workers} above 1):
     * every other transaction is the apply thread's, applied there in groups once nothing is in flight.
     */
    private final boolean chunksOnly;
    /** Chunks went to the workers since they last stood down. */
    private boolean workersServing;
    /** A segment must run alone: it waits until nothing is in flight, and no more frames are read meanwhile. */
    private boolean aloneWaiting;
    private int aloneTransactions;

    SegmentScheduler(ParallelApply parallel, GroupLog log, ApplierMetrics metrics, Host host, int groupMaxTransactions,
                     long groupMaxBytes, long groupMaxNs, boolean chunksOnly) {
        this.chunksOnly = chunksOnly;
        this.parallel = parallel;
        this.log = log;
        this.metrics = metrics;
        this.host = host;
        this.segmentMaxTransactions = Math.max(1, groupMaxTransactions / (2 * parallel.workers()));
        this.groupMaxTransactions = groupMaxTransactions;
        this.groupMaxBytes = groupMaxBytes;
        this.groupMaxNs = groupMaxNs;
    }

    /**
     * Whether the log is this scheduler's now: always, unless only chunks are; then while one is in flight or the
     * log starts with one.
     */
    boolean active() {
        return !chunksOnly || parallel.inFlight() > 0 || log.transactions() > 0 && log.snapshotChunk(0);
    }

    /**
     * Only chunks go to the workers, none is in flight, and a transaction that is no chunk (the copy's closing one)
     * leads the log: the copy is done, and the workers give back their connections and memory until the next one
     * (else an applier would hold them for as long as it runs). A log merely empty between two chunks is not the end.
     */
    void standDownIfCopyDone() {
        if (chunksOnly && workersServing && !active() && log.transactions() > 0) {
            parallel.standDown();
            workersServing = false;
        }
    }

    /** Transactions at the front of the log that are in flight. */
    int dispatchedTransactions() {
        return parallel.dispatchedTransactions();
    }

    /**
     * The transactions not yet dispatched fill a group, or a segment waits to run alone: read no more frames for
     * now.
     */
    boolean groupFull() {
        return aloneWaiting || log.fillsGroup(parallel.dispatchedTransactions(), groupMaxTransactions, groupMaxBytes);
    }

    int inFlight() {
        return parallel.inFlight();
    }

    /** The apply thread applies the whole log itself (a retry): whatever waited to run alone is in it. */
    void applyingEverythingHere() {
        aloneWaiting = false;
    }

    /**
     * Takes back what the workers finished, then dispatches segments for as long as a worker is idle and the
     * transactions not yet dispatched make one ({@code polled}: frames the last poll read; 0 means the ring is idle).
     */
    int run(long nowNs, int polled) {
        int work = collect(nowNs);
        if (host.paused()) {
            return work;
        }
        if (aloneWaiting) {
            if (parallel.inFlight() > 0) {
                return work;
            }
            aloneWaiting = false;
            return work + host.applyHere(nowNs, aloneTransactions); // the segment is at the front of the log now
        }
        while (parallel.hasIdleWorker()) {
            int first = parallel.dispatchedTransactions();
            int pending = log.transactions() - first;
            if (chunksOnly && pending > 0 && !log.snapshotChunk(first)) {
                break; // the apply thread's, once the chunks before it committed
            }
            long waitingSinceNs = Math.max(log.firstCompleteNs(), parallel.lastDispatchNs());
            if (pending == 0 || !(polled == 0 || pending >= segmentMaxTransactions || groupFull()
                    || nowNs - waitingSinceNs >= groupMaxNs)) {
                break;
            }
            int count = segmentLength(first, pending);
            String alone = log.bytesOf(first, count) > GroupLog.SPILL_ABOVE_BYTES ? "larger than memory"
                    : parallel.dispatch(log, count, host.epoch(), nowNs);
            work++;
            workersServing |= alone == null;
            if (alone != null) {
                LOG.debug("{} transaction(s) run alone on the apply thread: {}", count, alone);
                metrics.segmentAlone();
                if (parallel.inFlight() > 0) {
                    aloneWaiting = true;
                    aloneTransactions = count;
                } else {
                    work += host.applyHere(nowNs, count);
                }
                break;
            }
        }
        return work;
    }

    /** How many of the {@code pending} transactions from {@code first} on make one segment. */
    private int segmentLength(int first, int pending) {
        int count = 1;
        int most = Math.min(pending, segmentMaxTransactions);
        while (count < most && log.bytesOf(first, count + 1) <= groupMaxBytes
                && (!chunksOnly || log.snapshotChunk(first + count))) {
            count++;
        }
        return count;
    }

    /**
     * The outcomes of finished segments, oldest first. A committed one is consumed like a group applied on the apply
     * thread. After one that did not commit, nothing later did either: once all are back, the log is applied on the
     * apply thread, which either succeeds (the segment had only given up its turn) or meets the failure itself and
     * pauses as usual.
     */
    int collect(long nowNs) {
        int work = 0;
        for (ApplyWorker done; (done = parallel.oldestFinished()) != null; work++) {
            GroupApplier.Outcome outcome = done.outcome();
            if (!outcome.ok()) {
                if (!parallel.allFinished()) {
                    return work + 1;
                }
                LOG.debug("segment {} did not commit ({}); applying from it on the apply thread",
                        done.segmentNo(), outcome.failure().reason());
                parallel.releaseAllAfterFailure();
                aloneWaiting = false; // whatever waited to run alone is in the log, applied there now
                metrics.segmentRetried();
                return work + host.applyHere(nowNs, log.transactions());
            }
            host.committed(outcome, done.startNs());
            parallel.releaseOldest();
        }
        return work;
    }

    /** Waits until every segment in flight is back (before promotion or a stop). */
    void quiesce() {
        while (parallel.inFlight() > 0) {
            if (collect(System.nanoTime()) == 0) {
                LockSupport.parkNanos(100_000);
            }
        }
    }

    @Override
    public void close() {
        parallel.close();
    }
}
