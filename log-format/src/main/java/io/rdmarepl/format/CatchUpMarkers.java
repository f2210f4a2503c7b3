package io.rdmarepl.format;

/**
 * The contract between whoever proves a standby caught up (the coordinator's switchover) and the shipper: a
 * transaction on the primary that carries a transactional logical decoding message with this prefix
 * ({@code pg_logical_emit_message(true, 'rdmarepl.marker', ...)}) is shipped as an empty transaction (Begin and
 * Commit, no records) at its commit LSN, so the standby's applied LSN passes it. A fresh reading of the primary's
 * sequences (Sequence records) goes right before it: a standby whose applied LSN passed the marker also holds the
 * sequence states the fenced primary had when the marker was captured.
 */
public final class CatchUpMarkers {
    public static final String PREFIX = "rdmarepl.marker";

    private CatchUpMarkers() {
    }
}
