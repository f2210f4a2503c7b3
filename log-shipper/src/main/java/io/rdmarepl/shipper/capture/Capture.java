package io.rdmarepl.shipper.capture;

/**
 * A capture engine: reads the primary's change stream and hands whole transactions, in commit order, to the ship
 * pipeline; confirms to the replication slot only what the required standbys hold. Two engines sit behind it:
 * {@code pgoutput} (the shipper owns the replication connection) and {@code debezium} (Debezium's embedded engine).
 */
public interface Capture extends AutoCloseable {
    /** {@code pgoutput} or {@code debezium}, as {@code capture.engine} names it. */
    String engine();

    /** What this run does first: {@code initial} (copy the published tables, then stream) or {@code no_data}. */
    String snapshotMode();

    /** Why capture stopped for good, or null while it runs (or after a clean stop). */
    String failure();

    boolean isStopped();

    /** An initial copy is being shipped, or still to come. */
    boolean copying();

    /** The LSN of the last initial copy once known, or 0 when none was taken. */
    long copyLsn();

    /**
     * How far a running initial copy is: rows and bytes in all and of each table being copied, the rate, an ETA; or null
     * when none runs or the engine cannot say.
     *
     * @param everyTable also {@code per_table}: every table with its state, rows and bytes
     */
    default java.util.Map<String, Object> copyProgress(boolean everyTable) {
        return null;
    }

    /**
     * What a starting capture is doing, in words ("creating slot s: ..."), or null once it streams or the engine cannot
     * say: a start can wait long on the primary, and the status must say on what.
     */
    default String startStep() {
        return null;
    }

    long transactionsShipped();

    long lastShippedLsn();

    /** Shipped positions not yet confirmed to the slot (engine-specific unit: records or transactions). */
    int pendingAcknowledgements();

    /** Ship nothing new from now on; {@link #drained()} tells when every shipped transaction is confirmed to the slot. */
    void drain();

    boolean drained();

    /** Stops capture at once; idempotent. */
    @Override
    void close();
}
