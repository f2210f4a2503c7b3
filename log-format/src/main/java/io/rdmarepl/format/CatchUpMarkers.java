package io.rdmarepl.format;

/**
 * The contract between whoever proves a standby caught up (the coordinator's switchover) and the shipper: a
 * transaction on the primary that carries a transactional logical decoding message with this prefix
 * ({@code pg_logical_emit_message(true, 'rdmarepl.marker', ...)}) is shipped as an empty transaction (Begin and
 * Commit, no records) at its commit LSN, so the standby's applied LSN passes it.
 */
public final class CatchUpMarkers {
    public static final String PREFIX = "rdmarepl.marker";

    private CatchUpMarkers() {
    }
}
