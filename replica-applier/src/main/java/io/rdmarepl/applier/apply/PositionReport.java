package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.config.ApplierConfig;
import io.rdmarepl.applier.position.DurabilityTracker;
import io.rdmarepl.channel.ring.RingReader;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;

/**
 * What the standby tells the shipper through the ring's feedback: the applied position after every commit, and the
 * durable one. With {@code apply.synchronous.commit=off} a commit is durable only once the replica flushed its WAL past
 * the commit record: each group's commit reads the replica's WAL positions with it, and while commits stop the flush
 * position is polled every {@code apply.durable.poll.ms}. Otherwise a commit is durable when it returns. Feedback is
 * published at least every {@code apply.feedback.interval.ms}, so the shipper sees a live standby. Apply thread only.
 */
final class PositionReport {
    private final RingReader reader;
    private final ReplicaSession session;
    private final DurabilityTracker durability;
    private final boolean flushTracked;
    private final long durablePollNs;
    private final long feedbackIntervalNs;
    private long lastFeedbackNs;
    private long lastDurablePollNs;

    PositionReport(ApplierConfig config, RingReader reader, ReplicaSession session, long startLsn) {
        this.reader = reader;
        this.session = session;
        this.durability = new DurabilityTracker(startLsn);
        this.flushTracked = config.synchronousCommit().equals("off");
        this.durablePollNs = TimeUnit.MILLISECONDS.toNanos(config.durablePollMs());
        this.feedbackIntervalNs = TimeUnit.MILLISECONDS.toNanos(config.feedbackIntervalMs());
        reader.feedback().appliedLsn(startLsn);
        reader.feedback().durableLsn(startLsn);
        reader.publishFeedback();
    }

    /**
     * A group committed up to {@code appliedLsn} on the session, its commit started at {@code startNs}: reports it
     * applied, and durable as far as the replica's WAL says.
     */
    void committed(long appliedLsn, long startNs) {
        reader.feedback().appliedLsn(appliedLsn);
        if (flushTracked) {
            try {
                durability.committed(session.walInsertLsnAfterCommitSince(startNs), appliedLsn);
                long flushed = session.commits().flushLsnSince(startNs);
                if (flushed != 0) { // read with the commit: earlier groups the replica flushed since are durable now
                    durability.flushedUpTo(flushed);
                    lastDurablePollNs = System.nanoTime();
                }
            } catch (SQLException e) {
                session.discard(); // a later commit's entry covers this one
            }
        } else {
            durability.durableNow(appliedLsn);
        }
        reader.feedback().durableLsn(durability.durableLsn());
        reader.publishFeedback();
        lastFeedbackNs = System.nanoTime();
    }

    /** Once per cycle: polls the flush position while commits wait for it, and keeps feedback flowing; 1 if it polled. */
    int refresh(long nowNs) {
        int work = pollDurability(nowNs);
        if (nowNs - lastFeedbackNs >= feedbackIntervalNs) {
            reader.publishFeedback();
            lastFeedbackNs = nowNs;
        }
        return work;
    }

    private int pollDurability(long nowNs) {
        if (!flushTracked || durability.pending() == 0 || nowNs - lastDurablePollNs < durablePollNs) {
            return 0;
        }
        lastDurablePollNs = nowNs;
        try {
            long durable = durability.flushedUpTo(session.walFlushLsn());
            reader.feedback().durableLsn(durable);
            reader.publishFeedback();
            lastFeedbackNs = nowNs;
            return 1;
        } catch (SQLException e) {
            session.discard();
            return 0;
        }
    }

    long durableLsn() {
        return durability.durableLsn();
    }
}
