package io.rdmarepl.shipper.ship;

/**
 * A standby's ring is at a newer epoch than this shipper ships at: a failover happened since this shipper's epoch, so
 * its primary is an old one and what it would ship (its slot) belongs to a history the cluster left. A restart does
 * not change that; only the coordinator's activation at the current epoch (a fresh slot, a fresh copy) does.
 */
public final class StaleEpochException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    private final int shipperEpoch;
    private final int ringEpoch;

    public StaleEpochException(String standby, int shipperEpoch, int ringEpoch) {
        super("standby " + standby + " refuses this shipper: its ring is at epoch " + ringEpoch + ", this shipper ships at epoch "
                + shipperEpoch + " (a failover happened since; this member waits to be retired or activated by the coordinator)");
        this.shipperEpoch = shipperEpoch;
        this.ringEpoch = ringEpoch;
    }

    public int shipperEpoch() {
        return shipperEpoch;
    }

    public int ringEpoch() {
        return ringEpoch;
    }
}
