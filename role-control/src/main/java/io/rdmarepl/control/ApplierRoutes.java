package io.rdmarepl.control;

/**
 * The routes of an applier's admin endpoint that the coordinator calls. The {@code POST} ones are control actions and
 * need the roles' bearer token.
 */
public final class ApplierRoutes {
    /** {@code GET}: state, positions, ring and heartbeat age (a document, not a record: see the package's description). */
    public static final String STATUS = "/status";
    /**
     * {@code GET}, query {@code silence_ms}, {@code seen} ({@code heard} or {@code silent}), {@code state}, {@code
     * wait_ms}: the /status document, held until it no longer says what the caller saw (the ring's silence passed
     * {@code silence_ms}, a frame ended a silence, the state changed) or {@code wait_ms} passed. An applier without the
     * route answers it as /status at once (the same context), so a watcher then reads at its own pace.
     */
    public static final String STATUS_WATCH = "/status/watch";
    /**
     * {@code POST} {@link EpochRequest}, answered with an {@link ApplierActivateAnswer}: start following a fresh ring
     * (created at the epoch when given).
     */
    public static final String ACTIVATE = "/activate";
    /**
     * {@code POST}, no body, answered with a {@link DrainAnswer}: apply everything in the ring; from then on this
     * standby no longer renews the primary's lease.
     */
    public static final String DRAIN = "/drain";
    /** {@code POST}, no body, answered with a {@link FollowAnswer}: a drain called off, streaming and renewing again. */
    public static final String FOLLOW = "/follow";
    /** {@code POST} {@link EpochRequest}, answered with a {@link PromoteAnswer}: the replica takes writes. */
    public static final String PROMOTE = "/promote";
    /** {@code POST}, no body, answered with a {@link DeactivateAnswer}: back to waiting (a rejoin taken back). */
    public static final String DEACTIVATE = "/deactivate";

    private ApplierRoutes() {
    }
}
