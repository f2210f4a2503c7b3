package io.rdmarepl.applier.apply;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One apply worker of parallel apply: a thread with its own replica session that applies one segment at a time
 * (a copy of some complete transactions of the apply thread's log) as one replica transaction, writing the applied
 * position and committing only in its turn ({@link CommitOrder}).
 *
 * <pre>
 *  apply thread: assign(segment n, after c committed, after s sent) --> worker: wait for c, then for s (no locks held)
 *                                                         send every row of the segment; blocks inside the replica
 *                                                           on a row s locked until s commits
 *                                                         "sent"; wait until n - 1 committed (rows locked, not visible)
 *                                                         position + COMMIT
 *  apply thread: oldestFinished()? -> outcome, in segment order <-- done
 * </pre>
 *
 * While it waits for its turn it holds the locks of its rows. If an earlier segment waits inside the replica for a
 * later one (a conflict no write set shows, or a later one that blocks on this one's rows while an earlier one waits
 * for it), the chain could never go on, and the replica does not see that deadlock: every {@link #BLOCKING_CHECK_NS}
 * of waiting the worker asks the replica whether an earlier worker's backend is blocked by this one's or a later
 * one's, and then gives up its turn, which releases its rows. The apply thread applies from the first segment that did
 * not commit again, alone.
 */
final class ApplyWorker implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(ApplyWorker.class);
    static final long BLOCKING_CHECK_NS = TimeUnit.MILLISECONDS.toNanos(20);
    /** Whether any of the backends in $1 (earlier workers) is blocked by one in $2 (this and later workers). */
    private static final String EARLIER_BLOCKED_BY_LATER = "SELECT EXISTS (SELECT 1 FROM unnest(?::int[]) AS e(pid),"
            + " unnest(pg_catalog.pg_blocking_pids(e.pid)) AS b(pid) WHERE b.pid = ANY(?::int[]))";

    private final int index;
    private final ReplicaSession session;
    private final GroupApplier applier;
    private final CommitOrder order;
    private final GroupLog segment;
    private final LongSet writeSet = new LongSet();
    private final Thread thread;
    private final Runnable finished;
    private ApplyWorker[] team = new ApplyWorker[0];
    private final CommitTurn turn = this::awaitTurn;

    private volatile boolean running = true;
    /** Close the replica connection while idle (an initial copy is done). */
    private volatile boolean closeConnection;
    private volatile boolean assigned;
    private volatile boolean done;
    private volatile long segmentNo;
    private volatile int backendPid;
    private long afterCommit;
    private long afterSent;
    private int transactions;
    private int ringEpoch;
    private long startNs;
    private GroupApplier.Outcome outcome;

    /**
     * @param finished called on the worker's thread when a segment is done: the apply thread, if asleep, must collect
     *                 the outcome now, not at the end of its sleep
     */
    ApplyWorker(int index, ReplicaSession session, GroupApplier applier, CommitOrder order, Path spillDirectory,
                Runnable finished) {
        this.index = index;
        this.finished = finished;
        this.session = session;
        this.applier = applier;
        this.order = order;
        this.segment = new GroupLog(spillDirectory);
        this.thread = new Thread(this, "rdmarepl-apply-worker-" + index);
        thread.setDaemon(true);
    }

    /** The other workers, whose backends this one must never keep waiting while it waits for its turn. */
    void team(ApplyWorker[] all) {
        this.team = all;
    }

    void start() {
        thread.start();
    }

    /** The write set of the segment planned for this worker (filled by the apply thread before {@link #assign}). */
    LongSet writeSet() {
        return writeSet;
    }

    boolean idle() {
        return !assigned && !done;
    }

    /**
     * Hands the worker transactions {@code first .. first + count - 1} of {@code log} as segment {@code number}, to
     * start once segment {@code afterCommit} committed and segment {@code afterSent} sent its rows (0: no such wait).
     * Apply thread only; the worker must be {@link #idle}.
     */
    void assign(GroupLog log, int first, int count, long number, long afterCommit, long afterSent, int epoch) {
        segment.copyOf(log, first, count);
        this.transactions = count;
        this.afterCommit = afterCommit;
        this.afterSent = afterSent;
        this.ringEpoch = epoch;
        this.startNs = System.nanoTime();
        this.segmentNo = number;
        assigned = true;
        LockSupport.unpark(thread);
    }

    /** Whether the segment is finished (committed, failed or given up); then {@link #outcome} tells which. */
    boolean done() {
        return done;
    }

    GroupApplier.Outcome outcome() {
        return outcome;
    }

    int transactions() {
        return transactions;
    }

    long segmentNo() {
        return segmentNo;
    }

    long startNs() {
        return startNs;
    }

    /** The apply thread took the outcome: the worker is idle again. */
    void release() {
        outcome = null;
        done = false;
    }

    /**
     * The worker's part is over for now (the initial copy it served is done): its segment's memory goes back to its
     * first size here, and its replica connection is closed on its own thread. The next segment opens another.
     * Apply thread only; the worker must be {@link #idle} and not in flight.
     */
    void standDown() {
        segment.reset();
        closeConnection = true;
        LockSupport.unpark(thread);
    }

    @Override
    public void run() {
        while (running) {
            if (!assigned) {
                if (closeConnection) {
                    closeConnection = false;
                    session.closeConnection();
                }
                LockSupport.park(this);
                continue;
            }
            GroupApplier.Outcome result;
            try {
                result = applySegment();
            } catch (RuntimeException | Error e) {
                result = abandoned("apply worker " + index + " failed: " + e);
                if (e instanceof Error error) {
                    publish(result);
                    throw error;
                }
            }
            publish(result);
        }
        session.close();
        segment.close();
    }

    private void publish(GroupApplier.Outcome result) {
        if (result.ok()) {
            try {
                order.committed(segmentNo);
            } catch (IllegalStateException outOfOrder) {
                // a commit out of source order is a bug here: stop the stream at it rather than hang the apply thread
                LOG.error("apply worker {}: {}", index, outOfOrder.getMessage());
                order.abandonFrom(segmentNo + 1);
                result = new GroupApplier.Outcome(0, 0, 0, new ApplyFailure(FailureCategory.PERMANENT, 0, 0, null, null, null,
                        "parallel apply committed out of source order (" + outOfOrder.getMessage() + "); set apply.workers=1"));
            }
        } else {
            order.abandonFrom(segmentNo);
        }
        outcome = result;
        assigned = false;
        done = true;
        finished.run();
    }

    private GroupApplier.Outcome applySegment() {
        long number = segmentNo;
        try {
            if (afterCommit > 0 && waitFor(afterCommit, number, false) != CommitOrder.Wait.DONE
                    || afterSent > afterCommit && waitFor(afterSent, number, true) != CommitOrder.Wait.DONE) {
                return abandoned("a segment before it did not commit");
            }
        } catch (InterruptedException e) {
            return abandoned("stopped");
        }
        try {
            Connection connection = session.connection();
            backendPid = connection.unwrap(PGConnection.class).getBackendPID();
        } catch (SQLException e) {
            session.discard();
            return abandoned("no replica connection: " + e.getMessage());
        }
        return applier.apply(segment, transactions, false, ringEpoch, turn);
    }

    private CommitOrder.Wait waitFor(long segment, long self, boolean sentEnough) throws InterruptedException {
        CommitOrder.Wait wait;
        do {
            wait = sentEnough ? order.awaitSent(segment, self, BLOCKING_CHECK_NS) : order.await(segment, self, BLOCKING_CHECK_NS);
        } while (wait == CommitOrder.Wait.STILL_WAITING && running);
        return wait;
    }

    /** {@link CommitTurn}: waits for the segment before this one to commit, watching for a hidden deadlock. */
    private void awaitTurn(ReplicaSession replica, boolean rowsSent) throws SQLException {
        long number = segmentNo;
        if (rowsSent) {
            order.sent(number); // later segments that only update or delete rows of this one may start now
        }
        try {
            while (running) {
                switch (order.await(number - 1, number, BLOCKING_CHECK_NS)) {
                    case DONE:
                        return;
                    case ABANDONED:
                        throw new CommitTurn.Abandoned("segment " + number + ": a segment before it did not commit");
                    default:
                        if (anEarlierWorkerWaitsForALaterOne(replica.connection(), number)) {
                            LOG.debug("segment {}: an earlier segment waits for this or a later one: giving up its turn", number);
                            throw new CommitTurn.Abandoned("segment " + number
                                    + ": an earlier segment waits inside the replica for this or a later one");
                        }
                }
            }
            throw new CommitTurn.Abandoned("stopped");
        } catch (InterruptedException e) {
            throw new CommitTurn.Abandoned("stopped");
        }
    }

    /** Only while waiting, every {@link #BLOCKING_CHECK_NS}: allocation and a query are fine here. */
    private boolean anEarlierWorkerWaitsForALaterOne(Connection connection, long number) throws SQLException {
        List<Integer> earlier = new ArrayList<>();
        List<Integer> laterOrThis = new ArrayList<>();
        for (ApplyWorker other : team) {
            if (other.assigned && other.backendPid != 0) {
                (other.segmentNo < number ? earlier : laterOrThis).add(other.backendPid);
            }
        }
        if (earlier.isEmpty()) {
            return false;
        }
        try (PreparedStatement blocked = connection.prepareStatement(EARLIER_BLOCKED_BY_LATER)) {
            blocked.setArray(1, connection.createArrayOf("int4", earlier.toArray()));
            blocked.setArray(2, connection.createArrayOf("int4", laterOrThis.toArray()));
            try (ResultSet rows = blocked.executeQuery()) {
                return rows.next() && rows.getBoolean(1);
            }
        }
    }

    private GroupApplier.Outcome abandoned(String why) {
        return new GroupApplier.Outcome(0, 0, 0, new ApplyFailure(FailureCategory.RETRIABLE, 0, 0, null, null, null, why));
    }

    /** Stops the thread after its current segment (whose commit it gives up if it still waits for its turn). */
    void stop() {
        running = false;
        LockSupport.unpark(thread);
        synchronized (order) {
            order.notifyAll();
        }
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
