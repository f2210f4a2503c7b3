package io.rdmarepl.applier.apply;

import io.rdmarepl.format.Lsn;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A snapshot of the applier, published by the apply thread a few times a second and after every group;
 * safe to read from any thread.
 *
 * @param oldestPendingCommitTimeUs commit time (primary clock, µs since the epoch) of the oldest received
 *                                  transaction not yet applied, 0 when none
 */
public record ApplierStatus(
        ApplierState state,
        String stateReason,
        long stateSinceMs,
        String source,
        long appliedLsn,
        long appliedTxId,
        long durableLsn,
        long lastAppliedCommitTimeUs,
        long oldestPendingCommitTimeUs,
        int pendingTransactions,
        String ringUri,
        int ringEpoch,
        long ringPosition,
        long producerPosition,
        long refusedEpochFrames,
        long transactionsApplied,
        long rowsApplied,
        long skippedTransactions,
        long discardedPartialTransactions,
        long strayRecords,
        long retries,
        String lastError) {

    /** Milliseconds the replica is behind: since the primary committed the oldest transaction not yet applied; 0 when caught up. */
    public long lagMs() {
        if (oldestPendingCommitTimeUs == 0) {
            return 0;
        }
        return Math.max(0, System.currentTimeMillis() - oldestPendingCommitTimeUs / 1000);
    }

    /** Ring bytes written but not yet read. */
    public long backlogBytes() {
        return Math.max(0, producerPosition - ringPosition);
    }

    /** The /status document. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("role", "applier");
        m.put("state", state.displayName());
        m.put("state_reason", stateReason);
        m.put("state_since_ms", stateSinceMs);
        m.put("source", source);
        m.put("position", Map.of("applied_lsn", Lsn.format(appliedLsn), "applied_tx_id", appliedTxId,
                "durable_lsn", Lsn.format(durableLsn)));
        m.put("lag_ms", lagMs());
        m.put("pending_transactions", pendingTransactions);
        Map<String, Object> ring = new LinkedHashMap<>();
        ring.put("uri", ringUri);
        ring.put("epoch", ringEpoch);
        ring.put("position", ringPosition);
        ring.put("backlog_bytes", backlogBytes());
        ring.put("refused_epoch_frames", refusedEpochFrames);
        m.put("ring", ring);
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("transactions_applied", transactionsApplied);
        counts.put("rows_applied", rowsApplied);
        counts.put("transactions_skipped", skippedTransactions);
        counts.put("partial_transactions_discarded", discardedPartialTransactions);
        counts.put("stray_records", strayRecords);
        counts.put("retries", retries);
        m.put("counts", counts);
        m.put("last_error", lastError);
        return m;
    }
}
