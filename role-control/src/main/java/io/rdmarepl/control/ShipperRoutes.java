package io.rdmarepl.control;

/**
 * The routes of a shipper's admin endpoint that the coordinator calls. The {@code POST} ones are control actions and
 * need the roles' bearer token; {@code GET} ones do not.
 */
public final class ShipperRoutes {
    /** {@code GET}: the shipper's whole status document. */
    public static final String STATUS = "/status";
    /**
     * {@code GET}: is the primary alive, did its postmaster exit; held for up to {@value #WAIT_MS} ms (the
     * coordinator's long poll) until the postmaster exits.
     */
    public static final String PRIMARY = "/primary";
    /** The query parameter of {@link #PRIMARY} that asks the shipper to hold the request, in ms. */
    public static final String WAIT_MS = "wait_ms";
    /** {@code POST} {@link EpochRequest}: start shipping from a fresh slot with an initial copy. */
    public static final String ACTIVATE = "/activate";
    /** {@code POST} {@link FenceRequest}: stop shipping and heartbeats. */
    public static final String FENCE = "/fence";
    /** {@code POST}, no body, answered with a {@link RetireAnswer}: this member is a standby now, drop the slot. */
    public static final String RETIRE = "/retire";
    /** {@code POST}, no body: renew the lease; answered with the shipper's guarantee and its lease's terms. */
    public static final String LEASE = "/lease";

    private ShipperRoutes() {
    }

    /** {@link #PRIMARY} held for up to {@code waitMs}. */
    public static String primary(long waitMs) {
        return PRIMARY + "?" + WAIT_MS + "=" + waitMs;
    }
}
