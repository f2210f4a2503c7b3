package io.rdmarepl.harness.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.format.Lsn;
import io.rdmarepl.harness.rig.SyncWitness;
import io.rdmarepl.harness.rig.WalSenders;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.cluster.HostCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;

/**
 * Sync mode's evidence in the hosts layout, read as an operator would: the primary's shipper and the standby's applier
 * over their admin endpoints ({@code /status}), the primary's {@code pg_stat_replication} over SQL.
 */
final class HostSyncWitness implements SyncWitness {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HostCluster cluster;
    private final String primary;
    private final String standby;

    private HostSyncWitness(HostCluster cluster, String primary, String standby) {
        this.cluster = cluster;
        this.primary = primary;
        this.standby = standby;
    }

    /**
     * Once sync mode is on as the shipper and the primary see it: the shipper's sync state {@code sync}, and its
     * streaming connection synchronous in the primary's {@code pg_stat_replication}. Before that, a commit the client
     * is told of may not wait for the standby, and a trial would prove nothing.
     */
    static HostSyncWitness awaitSyncOn(HostCluster cluster, String primary, String standby, Duration timeout) {
        HostSyncWitness witness = new HostSyncWitness(cluster, primary, standby);
        Await.until("sync mode on, as " + primary + "'s shipper and its PostgreSQL see it", timeout, () -> {
            JsonNode sync = witness.shipperStatus().path("sync");
            return "sync".equals(sync.path("state").asText())
                    && "sync".equals(witness.streaming(sync.path("application_name").asText()).get("sync_state"));
        }, () -> cluster.shipperStatusOrError(primary));
        return witness;
    }

    @Override
    public Map<String, Object> atKill() {
        JsonNode shipper = shipperStatus();
        JsonNode sync = shipper.path("sync");
        String applicationName = sync.path("application_name").asText();
        PostgresServer server = cluster.server(primary);
        return SyncWitness.document(sync.path("mode").asText(), sync.path("state").asText(), sync.path("policy").asText(),
                shipper.path("acknowledged_lsn").asText(), WalSenders.streaming(server, applicationName),
                this::replicaDurableLsn, () -> WalSenders.of(server, applicationName));
    }

    private Map<String, Object> streaming(String applicationName) {
        Map<String, Object> row = WalSenders.streaming(cluster.server(primary), applicationName);
        return row == null ? Map.of() : row;
    }

    private JsonNode shipperStatus() {
        try {
            return JSON.readTree(cluster.shipperStatus(primary));
        } catch (IOException e) {
            throw new UncheckedIOException(primary + "'s shipper did not answer /status: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted asking " + primary + "'s shipper", e);
        }
    }

    /** The applier's durable LSN; 0 when it does not answer (then nothing counts as held). */
    private long replicaDurableLsn() {
        try {
            String lsn = JSON.readTree(cluster.applierStatusOrError(standby)).path("position").path("durable_lsn").asText("");
            return lsn.isEmpty() ? 0 : Lsn.parse(lsn);
        } catch (IOException e) {
            return 0;
        }
    }
}
