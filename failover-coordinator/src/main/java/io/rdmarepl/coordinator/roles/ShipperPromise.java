package io.rdmarepl.coordinator.roles;

import io.rdmarepl.control.Guarantee;
import io.rdmarepl.control.LeaseAnswer;
import io.rdmarepl.format.Lsn;

/**
 * What the old primary's shipper promised its clients when last heard (its answer to a lease renewal), set against
 * the standby about to be promoted. In sync mode a commit returned to its client only once the standbys held it,
 * so every commit up to the acknowledged LSN must be on the new primary; async (or sync degraded to async) promises
 * nothing beyond what was applied.
 *
 * @param mode            async, sync, or unknown (the shipper was never heard)
 * @param syncState       sync mode's state then: sync, degraded, enabling, failed; null in async mode
 * @param acknowledgedLsn every commit up to it was held by the standbys; null when unknown
 */
public record ShipperPromise(String mode, String syncState, String acknowledgedLsn) {
    /** @param leaseAnswer the shipper's last answer to a lease renewal; null when it was never heard */
    public static ShipperPromise of(LeaseAnswer leaseAnswer) {
        Guarantee guarantee = leaseAnswer == null ? null : leaseAnswer.guarantee();
        if (guarantee == null || guarantee.replicationMode() == null) {
            return new ShipperPromise("unknown", null, null);
        }
        return new ShipperPromise(guarantee.replicationMode(), guarantee.syncState(), guarantee.acknowledgedLsn());
    }

    /** Clients were told a commit returned only once the standbys held it. */
    public boolean synchronous() {
        return Guarantee.SYNC.equals(mode) && Guarantee.SYNC.equals(syncState);
    }

    /** In sync mode, why {@code member} (applied up to {@code appliedLsn}) does not hold every acknowledged commit; else null. */
    public String shortfall(String member, String appliedLsn) {
        if (!synchronous() || acknowledgedLsn == null) {
            return null;
        }
        if (appliedLsn != null && Lsn.compare(Lsn.parse(appliedLsn), Lsn.parse(acknowledgedLsn)) >= 0) {
            return null;
        }
        return member + " applied only up to " + appliedLsn + " but the shipper had acknowledged commits up to "
                + acknowledgedLsn + " (sync mode): promoting it would lose acknowledged transactions";
    }

    /** One sentence for the failover report: what this promotion keeps of what clients were told. */
    public String sentence(String member, String appliedLsn, String oldPrimaryWalLsn) {
        if (synchronous()) {
            return "sync mode: every transaction acknowledged to a client is on " + member + " (it applied up to " + appliedLsn
                    + ", at or past the " + acknowledgedLsn + " the shipper had acknowledged when last heard)";
        }
        String why = Guarantee.SYNC.equals(mode) ? "sync mode was " + syncState + " (async) when the shipper was last heard"
                : Guarantee.ASYNC.equals(mode) ? "async mode" : "replication mode unknown (the shipper was never heard)";
        return why + ": " + member + " applied up to " + appliedLsn + (oldPrimaryWalLsn == null ? "" : "; the old primary's WAL was at "
                + oldPrimaryWalLsn + " when last seen") + "; what it committed beyond the applied position is lost";
    }
}
