package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.config.ApplierConfig;
import java.util.concurrent.TimeUnit;

/**
 * When the transactions read so far are applied as one group (one worker): once the ring has nothing more, once the
 * group is full, or once its oldest transaction has waited {@code apply.group.max.ms}. A busy stream's group
 * ({@link #BUSY_GROUP_TRANSACTIONS} or more in the last one) waits up to {@code apply.group.linger.us} for more even
 * when the ring has nothing: on a loaded replica a group of a few transactions sends every row as a statement of its
 * own and commits for each few (a replica backend at its CPU share then falls behind), where a larger one collapses hot
 * rows and sends many rows a statement. A quiet stream never waits, so idle lag is untouched; nor does a stream whose
 * shipper awaits this standby's acknowledgement (sync mode), since its primary's commits, and so any more
 * transactions, wait for the group (measured under {@code bench lag --mode sync --load max}: sync commit p50 4.1 ms
 * with the linger, 2.7 without). The shipper says so through its sleep word in the ring: over shm it sleeps on its
 * doorbell meanwhile, over verbs it polls the feedback and holds the word odd. A shipper that has not said so yet when
 * the group is looked at costs one timed sleep ({@code apply.idle.max.park.us}) at most.
 */
final class GroupTiming {
    /** A last group of this many transactions or more: the stream is busy, and the next group lingers. */
    static final int BUSY_GROUP_TRANSACTIONS = 4;

    private final long maxNs;
    private final long lingerNs;
    private int lastGroupTransactions;

    GroupTiming(ApplierConfig config) {
        this.maxNs = TimeUnit.MILLISECONDS.toNanos(config.groupMaxMs());
        this.lingerNs = TimeUnit.MICROSECONDS.toNanos(config.groupLingerUs());
    }

    /** {@code apply.group.max.ms} in nanoseconds. */
    long maxNs() {
        return maxNs;
    }

    /**
     * @param oldestNs     when the oldest transaction read was complete
     * @param ringWasEmpty the last poll read nothing
     * @param full         the transactions read fill a group
     * @param awaited      the shipper waits for this standby's acknowledgement (sync mode): a group never lingers
     *                     then, since the primary's commits, and so any more transactions, wait for it
     */
    boolean due(long nowNs, long oldestNs, boolean ringWasEmpty, boolean full, boolean awaited) {
        long waitedNs = nowNs - oldestNs;
        return full || waitedNs >= maxNs
                || ringWasEmpty && (awaited || !(lastGroupTransactions >= BUSY_GROUP_TRANSACTIONS && waitedNs < lingerNs));
    }

    /**
     * How much longer a group that is not {@link #due} waits for more while the ring has nothing (0: not lingering).
     * The apply thread sleeps that long on a timer, not on the ring's doorbell: a doorbell would wake it, and cost the
     * shipper a send, for every transaction arriving meanwhile, where the group waits anyway.
     */
    long lingerLeftNs(long nowNs, long oldestNs) {
        long waitedNs = nowNs - oldestNs;
        long untilNs = Math.min(lingerNs, maxNs);
        return lastGroupTransactions >= BUSY_GROUP_TRANSACTIONS && waitedNs < untilNs ? untilNs - waitedNs : 0;
    }

    /** A group of {@code transactions} was applied. */
    void applied(int transactions) {
        lastGroupTransactions = transactions;
    }
}
