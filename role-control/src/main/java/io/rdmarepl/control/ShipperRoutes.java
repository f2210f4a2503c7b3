package io.rdmarepl.control;

/**
 * The routes of a shipper's admin endpoint that the coordinator calls. The {@code POST} ones are control actions and
 * need the roles' bearer token; {@code GET} ones do not.
 */
public final class ShipperRoutes {
    /** {@code GET}: the shipper's whole status document (a document, not a record: see the package's description). */
    public static final String STATUS = "/status";
    /**
     * {@code GET}, answered with a {@link PrimaryAnswer}: is the primary alive, did its postmaster exit; with
     * {@code ?}{@value #WAIT_MS}{@code =N} held until the postmaster exits or N ms pass (the coordinator's long poll).
     */
    public static final String PRIMARY = "/primary";
    /** The query parameter of {@link #PRIMARY} that asks the shipper to hold the request, in ms. */
    public static final String WAIT_MS = "wait_ms";
    /**
     * {@code POST} {@link EpochRequest}, answered with a {@link ShipperActivateAnswer}: start shipping from a fresh slot
     * with an initial copy.
     */
    public static final String ACTIVATE = "/activate";
    /** {@code POST} {@link FenceRequest}, answered with a {@link FenceAnswer}: stop shipping and heartbeats. */
    public static final String FENCE = "/fence";
    /**
     * {@code POST}, no body, answered with a {@link ResumeAnswer}: a fenced shipper ships again, from its slot at the
     * epoch it shipped at, as a restart of its process would. The coordinator sends it after a failover that fenced
     * this primary was refused, so nothing was promoted; a standby promoted since refuses the epoch, and the role waits.
     */
    public static final String RESUME = "/resume";
    /** {@code POST}, no body, answered with a {@link RetireAnswer}: this member is a standby now, drop the slot. */
    public static final String RETIRE = "/retire";
    /**
     * {@code POST}, no body, answered with a {@link LeaseAnswer}: renew the lease; the answer carries the shipper's
     * guarantee, its lease's terms and a running copy's progress.
     */
    public static final String LEASE = "/lease";

    private ShipperRoutes() {
    }

    /** {@link #PRIMARY} held for up to {@code waitMs}. */
    public static String primary(long waitMs) {
        return PRIMARY + "?" + WAIT_MS + "=" + waitMs;
    }
}
