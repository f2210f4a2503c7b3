package io.rdmarepl.shipper.capture;

import io.rdmarepl.shipper.config.InternalSchema;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.shipper.config.SyncSettings;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * The Debezium engine configuration the shipper runs with. Latency: {@code poll.interval.ms} bounds
 * how long a change waits in Debezium's queue (the streaming thread and the queue poll both sleep
 * up to it); the batch and queue sizes only matter under load. Offsets live in memory on purpose:
 * the replication slot's confirmed LSN, which we advance only to what the standbys hold durably,
 * is where a restarted shipper resumes.
 */
public final class EngineProperties {
    /** Topic prefix Debezium names its records with; the transaction topic is {@code <prefix>.transaction}. */
    public static final String TOPIC_PREFIX = "rdmarepl";

    private EngineProperties() {
    }

    /** @param snapshotMode what {@link SnapshotStart} decided for this start */
    public static Properties of(ShipperConfig config, Map<String, String> valueSettings, String snapshotMode) {
        Properties p = new Properties();
        p.setProperty("name", "rdmarepl-shipper-" + config.sourceName());
        p.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
        p.setProperty("offset.storage", "org.apache.kafka.connect.storage.MemoryOffsetBackingStore");
        p.setProperty("offset.flush.interval.ms", "0");
        p.setProperty("topic.prefix", TOPIC_PREFIX);
        p.setProperty("database.hostname", config.databaseHost());
        p.setProperty("database.port", Integer.toString(config.databasePort()));
        p.setProperty("database.user", config.databaseUser());
        p.setProperty("database.password", config.databasePassword());
        p.setProperty("database.sslmode", config.sslMode());
        if (!config.sslRootCert().isEmpty()) {
            p.setProperty("database.sslrootcert", config.sslRootCert());
        }
        p.setProperty("database.dbname", config.databaseName());
        // every session with CaptureSessionSettings; the replication connection shows as rdmarepl_<source.name>:
        // synchronous_standby_names names it in sync mode
        p.setProperty("database.connection.factory.class", DebeziumConnectionFactory.class.getName());
        p.setProperty("database." + DebeziumConnectionFactory.NAME_PROPERTY, SyncSettings.applicationName(config.sourceName()));
        p.setProperty("plugin.name", "pgoutput");
        p.setProperty("slot.name", config.slotName());
        p.setProperty("slot.drop.on.stop", "false");
        p.setProperty("publication.name", config.publicationName());
        if (config.publicationTables().isEmpty()) {
            p.setProperty("publication.autocreate.mode", "all_tables");
        } else {
            p.setProperty("publication.autocreate.mode", "filtered");
            p.setProperty("table.include.list", config.publicationTables().stream()
                    .map(t -> t.replace(".", "\\.")).collect(Collectors.joining(",")));
        }
        p.setProperty("snapshot.mode", snapshotMode);
        p.setProperty("provide.transaction.metadata", "true");
        p.setProperty("tombstones.on.delete", "false");
        // Debezium's own heartbeat gives the engine thread a batch now and then while the primary
        // is idle, which is when acknowledged offsets get committed
        p.setProperty("heartbeat.interval.ms", "200");
        p.setProperty("poll.interval.ms", Long.toString(config.pollInterval().toMillis()));
        p.setProperty("max.batch.size", Integer.toString(config.maxBatchSize()));
        p.setProperty("max.queue.size", Integer.toString(config.maxQueueSize()));
        p.setProperty("errors.max.retries", "0");
        valueSettings.forEach(p::setProperty); // the encoding's settings win over ours...
        config.debezium().forEach(p::setProperty); // ...and the operator's over both
        excludeInternalSchema(p);
        return p;
    }

    /**
     * Keeps the applier's bookkeeping ({@link InternalSchema}) out of capture and out of the initial copy: a FOR ALL
     * TABLES publication includes it on a member that was a standby. Debezium refuses schema.include.list together
     * with schema.exclude.list; an operator's include list (checked not to name the schema) already leaves it out,
     * and an operator's exclude list is kept and extended. table.include.list combines with either.
     */
    private static void excludeInternalSchema(Properties p) {
        if (p.getProperty("schema.include.list") != null) {
            return;
        }
        String operators = p.getProperty("schema.exclude.list");
        p.setProperty("schema.exclude.list", operators == null || operators.isBlank()
                ? InternalSchema.NAME : InternalSchema.NAME + "," + operators);
    }
}
