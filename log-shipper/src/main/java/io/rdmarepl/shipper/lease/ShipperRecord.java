package io.rdmarepl.shipper.lease;

/**
 * The shipper's record in the lease file: who the shipper is and when it last heard from a standby or the coordinator.
 *
 * @param pid           the shipper's process
 * @param state         whether the lease counts
 * @param leaseNs       the lease ({@code fence.lease.ms}) in nanoseconds
 * @param lastContactNs {@link System#nanoTime()} of the last contact
 * @param contact       who that was: {@code standby b}, {@code coordinator}, {@code start}
 * @param publishedNs   when the shipper wrote this record
 */
public record ShipperRecord(long pid, LeaseState state, long leaseNs, long lastContactNs, String contact, long publishedNs) {
    /** A file no shipper wrote to yet. */
    public static final ShipperRecord EMPTY = new ShipperRecord(0, LeaseState.NONE, 0, 0, "", 0);

    /** The lease counts and ran out at {@code nowNs}. */
    public boolean lapsedAt(long nowNs) {
        return state == LeaseState.ARMED && nowNs - lastContactNs > leaseNs;
    }

    public ShipperRecord withPid(long newPid, long nowNs) {
        return new ShipperRecord(newPid, state, leaseNs, lastContactNs, contact, nowNs);
    }

    public ShipperRecord released(long nowNs) {
        return new ShipperRecord(pid, LeaseState.RELEASED, leaseNs, lastContactNs, contact, nowNs);
    }
}
