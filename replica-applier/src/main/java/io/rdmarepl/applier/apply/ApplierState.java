package io.rdmarepl.applier.apply;

/** The applier's state, with the code published to the {@code rdmarepl_applier_state} gauge and the name /status shows. */
public enum ApplierState {
    STARTING(0, "starting"),
    /** Reading the ring and applying. */
    STREAMING(1, "streaming"),
    /** A group failed for a transient reason (connection, deadlock, serialization): retried after a back-off. */
    RETRYING(2, "retrying"),
    /** The replica's schema cannot take a transaction: paused there, retried until the operator fixes it. */
    PAUSED_SCHEMA(3, "paused-schema"),
    /** Another permanent error (constraint, permission, corrupt stream): paused there, retried until fixed. */
    PAUSED_ERROR(4, "paused-error"),
    /** Applying everything in the ring before promotion. */
    DRAINING(5, "draining"),
    /** Promoted: no longer applies; the replica is writable and its sequences are past the primary's. */
    PROMOTED(6, "promoted"),
    STOPPED(7, "stopped");

    private final int code;
    private final String displayName;

    ApplierState(int code, String displayName) {
        this.code = code;
        this.displayName = displayName;
    }

    public int code() {
        return code;
    }

    public String displayName() {
        return displayName;
    }

    /** True while the applier reads the ring (streaming or draining). */
    public boolean applying() {
        return this == STREAMING || this == DRAINING;
    }

    public boolean paused() {
        return this == RETRYING || this == PAUSED_SCHEMA || this == PAUSED_ERROR;
    }
}
