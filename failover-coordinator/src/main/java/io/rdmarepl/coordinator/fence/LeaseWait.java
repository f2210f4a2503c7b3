package io.rdmarepl.coordinator.fence;

import io.rdmarepl.control.LeaseTerms;
import java.util.concurrent.TimeUnit;

/**
 * Until when a promotion over a fence nothing confirmed waits: the moment the old primary's lease has certainly run
 * out, so that it refuses writes (its shipper fenced it) before the standby takes any.
 *
 * <pre>
 *   deadline = last renewal + (lease + lease check + self-fence limit) x (1 + CLOCK_RATE_SLACK)
 *
 *   last renewal: the latest moment a renewal could have reached the shipper, the later of
 *     - the end of the last POST /lease this coordinator sent, answered or not (or when it took over the lead:
 *       another coordinator may have renewed until then), and
 *     - the answers to the standbys' POST /drain: from then on a standby no longer renews the lease
 *   lease, lease check, self-fence limit: the shipper's lease_ms, lease_check_ms and self_fence_timeout_ms from its
 *     last lease answer; the lease is the longer of the shipper's and this coordinator's fence.lease.ms, and this
 *     coordinator's alone when the shipper has not answered since it leads
 * </pre>
 *
 * The shipper counts the lease on its own clock, this coordinator the wait on its own: the slack covers their running
 * at different rates (a working clock drifts by well under 0.1%). A renewal held up in the network for longer than
 * its request's timeout, or a shipper process frozen while its primary takes writes, is outside what this bounds.
 *
 * @param deadlineNs when the lease has certainly run out, System.nanoTime()
 * @param waitMs     from the computation to the deadline
 * @param sentence   the decision, for the history and the log
 */
public record LeaseWait(long deadlineNs, long waitMs, String sentence) {
    public static final double CLOCK_RATE_SLACK = 0.01;
    /** The shipper's lease check and self-fence limit when its answer does not say (a shipper that never answered). */
    static final long DEFAULT_LEASE_CHECK_MS = 100;
    static final long DEFAULT_SELF_FENCE_TIMEOUT_MS = 2000;

    /**
     * @param member            the old primary
     * @param terms             the lease's terms in its shipper's last answer to a renewal; null when none since this
     *                          coordinator leads
     * @param configuredLeaseMs this coordinator's {@code fence.lease.ms}
     * @param lastRenewalNs     the latest moment a renewal could have reached the shipper (System.nanoTime())
     * @param force             the operator forces the failover: a missing lease does not refuse it
     * @throws FenceException   when no lease can run out (the shipper runs none, or nothing is known of it), unless forced
     */
    public static LeaseWait of(String member, LeaseTerms terms, long configuredLeaseMs, long lastRenewalNs, boolean force) {
        long nowNs = System.nanoTime();
        boolean heard = terms != null && terms.leaseMs() != null;
        long reported = heard ? terms.leaseMs() : -1;
        String renewed = "the last renewal it could have had, " + TimeUnit.NANOSECONDS.toMillis(nowNs - lastRenewalNs) + " ms ago";
        if (reported == 0 || !heard && configuredLeaseMs == 0) {
            String why = member + "'s fence is not confirmed and " + (reported == 0 ? "its shipper runs no lease (fence.lease.ms=0)"
                    : "its shipper has not answered since this coordinator leads, and fence.lease.ms=0 here says the shippers run no lease")
                    + ": nothing makes it refuse writes";
            if (!force) {
                throw new FenceException(why + "; set fence.lease.ms on its shipper or fence.command here, or make sure " + member
                        + " takes no writes and `rdmarepl failover --force`");
            }
            return new LeaseWait(nowNs, 0, why + "; promoting anyway: the operator forced it");
        }
        long lease = Math.max(reported, configuredLeaseMs);
        long check = heard && terms.leaseCheckMs() != null ? terms.leaseCheckMs() : DEFAULT_LEASE_CHECK_MS;
        long selfFence = heard && terms.selfFenceTimeoutMs() != null ? terms.selfFenceTimeoutMs() : DEFAULT_SELF_FENCE_TIMEOUT_MS;
        long totalMs = lease + check + selfFence;
        long slack = (long) Math.ceil(totalMs * CLOCK_RATE_SLACK);
        long deadlineNs = lastRenewalNs + TimeUnit.MILLISECONDS.toNanos(totalMs + slack);
        long waitMs = Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadlineNs - nowNs));
        String leaseSource = !heard ? "fence.lease.ms " + lease + " assumed (this coordinator's: its shipper has not answered since it leads)"
                : reported < configuredLeaseMs ? "fence.lease.ms " + lease + " (this coordinator's, longer than the shipper's " + reported + ")"
                : "fence.lease.ms " + lease;
        return new LeaseWait(deadlineNs, waitMs, member + "'s fence is not confirmed: waiting " + waitMs + " ms until its lease has "
                + "certainly run out (" + renewed + " + " + leaseSource + " + lease check " + check + " ms + self-fence " + selfFence
                + " ms + " + slack + " ms clock slack)");
    }
}
