package io.rdmarepl.harness.rig;

import io.rdmarepl.format.Lsn;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What a sync-mode failover trial reads an instant before its kill: what the primary enforced, what the shipper
 * promised and what the replica held ({@link #atKill()}). Roles in this process read it directly
 * ({@link ReplicationRoles#syncWitness}); roles on other hosts over their admin endpoints.
 */
public interface SyncWitness {

    /**
     * {@code replication_mode}, {@code sync_state} (the shipper's), {@code sync_policy}, {@code acknowledged_lsn},
     * {@code primary_sync_state} and {@code primary_flush_lsn} (the primary's {@code pg_stat_replication}: what the
     * shipper confirmed, releasing the commits up to it), {@code replica_durable_lsn} (the applier's, read last) and
     * {@code flush_within_replica}: the primary's flush position at or below the replica's durable one (expected; a
     * Debezium heartbeat confirmed after the last shipped commit may put it past without any commit in between).
     */
    Map<String, Object> atKill();

    /**
     * The document {@link #atKill()} returns, from what was read.
     *
     * @param streaming  the primary's {@code pg_stat_replication} row of the shipper's streaming connection, or null
     * @param walSenders every row of the shipper's, read only when the primary did not count it as synchronous
     */
    static Map<String, Object> document(String replicationMode, String syncState, String syncPolicy, String acknowledgedLsn,
                                        Map<String, Object> streaming, Supplier<Long> replicaDurableLsn,
                                        Supplier<List<Map<String, Object>>> walSenders) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("replication_mode", replicationMode);
        m.put("sync_state", syncState);
        m.put("sync_policy", syncPolicy);
        m.put("acknowledged_lsn", acknowledgedLsn);
        m.put("primary_sync_state", streaming == null ? null : streaming.get("sync_state"));
        Object flush = streaming == null ? null : streaming.get("flush_lsn");
        m.put("primary_flush_lsn", flush);
        long durable = replicaDurableLsn.get();
        m.put("replica_durable_lsn", Lsn.format(durable));
        m.put("flush_within_replica", flush != null && Lsn.compare(Lsn.parse(flush.toString()), durable) <= 0);
        if (!"sync".equals(m.get("primary_sync_state"))) {
            m.put("primary_wal_senders", walSenders.get());
        }
        return m;
    }
}
