package io.rdmarepl.applier.apply;

import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
 *  apply thread: assign(segment n, after segment d) --> worker: wait until d committed (no locks held yet)
 *                                                         send every row of the segment
 *                                                         wait until n - 1 committed   (rows locked, not visible)
 *                                                         position + COMMIT
 *  apply thread: finished()? -> outcome, in segment order <-- done
 * </pre>
 *
 * While it waits for its turn it holds the locks of its rows. If a segment before it waits for one of them (a
 * conflict no write set shows), neither could ever go on, and the replica does not see that deadlock: the worker
 * asks the replica every {@link #BLOCKING_CHECK_NS} whether its backend blocks an earlier worker's, and then gives
 * up its turn. The apply thread applies that segment again alone.
 */
final class ApplyWorker implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(ApplyWorker.class);
    static final long BLOCKING_CHECK_NS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final String BLOCKS_ANY = "SELECT coalesce(bool_or(pg_catalog.pg_backend_pid() = ANY("
            + "pg_catalog.pg_blocking_pids(p))), false) FROM unnest(?::int[]) AS p";

    private final int index;
    private final ReplicaSession session;
    private final GroupApplier applier;
    private final CommitOrder order;
    private final GroupLog segment;
    private final LongSet writeSet = new LongSet();
    private final Thread thread;
    private ApplyWorker[] team = new ApplyWorker[0];
    private final CommitTurn turn = this::awaitTurn;

    private volatile boolean running = true;
    private volatile boolean assigned;
    private volatile boolean done;
    private volatile long segmentNo;
    private volatile int backendPid;
    private long after;
    private int transactions;
    private int ringEpoch;
    private long startNs;
    private GroupApplier.Outcome outcome;

    ApplyWorker(int index, ReplicaSession session, GroupApplier applier, CommitOrder order, Path spillDirectory) {
        this.index = index;
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
     * start once segment {@code after} committed (0: at once). Apply thread only; the worker must be {@link #idle}.
     */
    void assign(GroupLog log, int first, int count, long number, long after, int epoch) {
        segment.copyOf(log, first, count);
        this.transactions = count;
        this.after = after;
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

    @Override
    public void run() {
        while (running) {
            if (!assigned) {
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
    }

    private GroupApplier.Outcome applySegment() {
        long number = segmentNo;
        if (after > 0) {
            try {
                if (waitFor(after, number) != CommitOrder.Wait.DONE) {
                    return abandoned("a segment before it did not commit");
                }
            } catch (InterruptedException e) {
                return abandoned("stopped");
            }
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

    private CommitOrder.Wait waitFor(long upTo, long self) throws InterruptedException {
        CommitOrder.Wait wait;
        do {
            wait = order.await(upTo, self, BLOCKING_CHECK_NS);
        } while (wait == CommitOrder.Wait.STILL_WAITING && running);
        return wait;
    }

    /** {@link CommitTurn}: rows sent, waits for the segment before this one, watching for a hidden deadlock. */
    private void awaitTurn(ReplicaSession replica) throws SQLException {
        long number = segmentNo;
        try {
            while (running) {
                switch (order.await(number - 1, number, BLOCKING_CHECK_NS)) {
                    case DONE:
                        return;
                    case ABANDONED:
                        throw new CommitTurn.Abandoned("segment " + number + ": a segment before it did not commit");
                    default:
                        if (blocksAnEarlierWorker(replica.connection(), number)) {
                            LOG.debug("segment {} holds a row an earlier segment waits for: giving up its turn", number);
                            throw new CommitTurn.Abandoned("segment " + number + " holds a row an earlier segment waits for");
                        }
                }
            }
            throw new CommitTurn.Abandoned("stopped");
        } catch (InterruptedException e) {
            throw new CommitTurn.Abandoned("stopped");
        }
    }

    private boolean blocksAnEarlierWorker(Connection connection, long number) throws SQLException {
        int n = 0;
        Integer[] pids = new Integer[team.length];
        for (ApplyWorker other : team) {
            if (other != this && other.assigned && other.segmentNo < number && other.backendPid != 0) {
                pids[n++] = other.backendPid;
            }
        }
        if (n == 0) {
            return false;
        }
        Array array = connection.createArrayOf("int4", java.util.Arrays.copyOf(pids, n));
        try (PreparedStatement blocks = connection.prepareStatement(BLOCKS_ANY)) {
            blocks.setArray(1, array);
            try (ResultSet rows = blocks.executeQuery()) {
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
