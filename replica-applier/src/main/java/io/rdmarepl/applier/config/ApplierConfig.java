package io.rdmarepl.applier.config;

import static io.rdmarepl.applier.config.ApplierKeys.*;

import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.config.Activation;
import io.rdmarepl.config.ConfigException;
import io.rdmarepl.config.ConfigReader;
import io.rdmarepl.config.ConfigSource;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/**
 * The applier's whole configuration, typed and validated once at start ({@link #load}); see
 * {@link ApplierKeys} for every key, its default and meaning. Immutable.
 */
public record ApplierConfig(
        String sourceName,
        Activation activation,
        ChannelUri ringUri,
        int ringCapacityBytes,
        int ringEpoch,
        String replicaJdbcUrl,
        String replicaUser,
        String replicaPassword,
        int replicaPoolSize,
        long replicaConnectTimeoutMs,
        boolean replicaReadOnlyForClients,
        String sessionReplicationRole,
        String synchronousCommit,
        int applyWorkers,
        int copyWorkers,
        int batchMaxRows,
        int copyMinRows,
        boolean pipeline,
        int groupMaxTransactions,
        long groupMaxBytes,
        long groupMaxMs,
        long groupLingerUs,
        int pollMaxFrames,
        long idleMaxParkUs,
        long retryInitialMs,
        long retryMaxMs,
        long durablePollMs,
        long feedbackIntervalMs,
        boolean pauseOnDivergence,
        long sequenceHeadroom,
        long sequenceSyncIntervalMs,
        String adminBind,
        int adminPort,
        String adminToken,
        Map<String, String> printable) {

    /**
     * Apply workers beside the apply thread: {@code apply.workers} when above 1 (every segment), else {@code
     * apply.copy.workers} (an initial copy's chunks only); 1 means none.
     */
    public int parallelWorkers() {
        return applyWorkers > 1 ? applyWorkers : copyWorkers;
    }

    /** The defaults, overridden by {@code overrides} ({@code key, value, key, value ...}). */
    public static ApplierConfig of(String... overrides) {
        Properties properties = new Properties();
        for (int i = 0; i + 1 < overrides.length; i += 2) {
            properties.setProperty(overrides[i], overrides[i + 1]);
        }
        return load(properties);
    }

    /**
     * Reads a properties file (UTF-8); problems are reported under its name.
     *
     * @throws IllegalArgumentException naming the file when it cannot be read
     * @throws ConfigException listing every bad or unknown key at once
     */
    public static ApplierConfig load(Path file) {
        return load(ConfigSource.read(file));
    }

    /** @throws ConfigException listing every bad or unknown key at once */
    public static ApplierConfig load(Properties properties) {
        return load(ConfigSource.of("applier configuration", properties));
    }

    /** @throws ConfigException listing every bad or unknown key at once */
    public static ApplierConfig load(ConfigSource source) {
        ConfigReader r = new ConfigReader(source, ALL);
        String sourceName = r.get(SOURCE_NAME);
        Activation activation = r.get(ACTIVATION);
        ChannelUri ringUri = r.get(RING_URI);
        int capacity = r.get(RING_CAPACITY_BYTES);
        int epoch = r.get(RING_EPOCH);
        String url = r.get(REPLICA_JDBC_URL);
        String user = r.get(REPLICA_USER);
        String password = r.get(REPLICA_PASSWORD);
        int poolSize = r.get(REPLICA_POOL_SIZE);
        long connectTimeoutMs = r.get(REPLICA_CONNECT_TIMEOUT_MS);
        boolean readOnly = r.get(REPLICA_READ_ONLY_FOR_CLIENTS);
        String role = r.get(REPLICA_SESSION_REPLICATION_ROLE);
        String syncCommit = r.get(APPLY_SYNCHRONOUS_COMMIT);
        int workers = r.get(APPLY_WORKERS);
        if (workers > 1 && !role.equals("replica")) {
            r.problem(APPLY_WORKERS, String.valueOf(workers), "needs " + REPLICA_SESSION_REPLICATION_ROLE.name()
                    + "=replica (with origin, triggers and foreign keys fire and may read rows another connection is"
                    + " still writing)");
        }
        // with origin, triggers fire: chunks on several connections could read each other's unfinished rows; the
        // default then means 1, a value written says something the loader must refuse
        int copyWorkers = r.get(APPLY_COPY_WORKERS);
        if (!role.equals("replica")) {
            if (copyWorkers > 1 && source.properties().getProperty(APPLY_COPY_WORKERS.name()) != null) {
                r.problem(APPLY_COPY_WORKERS, String.valueOf(copyWorkers), "needs " + REPLICA_SESSION_REPLICATION_ROLE.name()
                        + "=replica (with origin, triggers fire and may read rows another connection is still writing)");
            }
            copyWorkers = 1;
        }
        int batchRows = r.get(APPLY_BATCH_MAX_ROWS);
        int copyRows = r.get(APPLY_COPY_MIN_ROWS);
        boolean pipeline = r.get(APPLY_PIPELINE);
        int groupTx = r.get(APPLY_GROUP_MAX_TRANSACTIONS);
        long groupBytes = r.get(APPLY_GROUP_MAX_BYTES);
        long groupMs = r.get(APPLY_GROUP_MAX_MS);
        long lingerUs = r.get(APPLY_GROUP_LINGER_US);
        int pollFrames = r.get(APPLY_POLL_MAX_FRAMES);
        long parkUs = r.get(APPLY_IDLE_MAX_PARK_US);
        long retryInitial = r.get(APPLY_RETRY_INITIAL_MS);
        long retryMax = r.get(APPLY_RETRY_MAX_MS);
        if (retryMax < retryInitial) {
            r.problem(APPLY_RETRY_MAX_MS, String.valueOf(retryMax), "must be at least apply.retry.initial.ms (" + retryInitial + ")");
        }
        long durablePoll = r.get(APPLY_DURABLE_POLL_MS);
        long feedbackMs = r.get(APPLY_FEEDBACK_INTERVAL_MS);
        boolean pauseOnDivergence = r.get(APPLY_ON_DIVERGENCE).equals("pause");
        long headroom = r.get(PROMOTE_SEQUENCE_HEADROOM);
        long sequenceSyncMs = r.get(PROMOTE_SEQUENCE_SYNC_INTERVAL_MS);
        String adminBind = r.get(ADMIN_BIND);
        int adminPort = r.get(ADMIN_PORT);
        String adminToken = r.get(ADMIN_TOKEN);
        r.rejectUnknownKeys();
        r.throwIfInvalid();
        return new ApplierConfig(sourceName, activation, ringUri, capacity, epoch, url, user, password, poolSize, connectTimeoutMs,
                readOnly, role, syncCommit, workers, copyWorkers, batchRows, copyRows, pipeline, groupTx, groupBytes, groupMs, lingerUs, pollFrames, parkUs, retryInitial,
                retryMax, durablePoll, feedbackMs, pauseOnDivergence, headroom, sequenceSyncMs, adminBind, adminPort, adminToken,
                r.resolved());
    }

    /**
     * This configuration with the ring created at {@code epoch}: an activation that names its epoch gets a ring
     * whose header carries it from the first byte, so a shipper attaching at once never learns the old one.
     */
    public ApplierConfig withRingEpoch(int epoch) {
        if (epoch < 1) {
            throw new IllegalArgumentException("ring epoch must be a positive integer, got " + epoch);
        }
        Map<String, String> shown = new java.util.TreeMap<>(printable);
        shown.put(RING_EPOCH.name(), Integer.toString(epoch));
        return new ApplierConfig(sourceName, activation, ringUri, ringCapacityBytes, epoch, replicaJdbcUrl, replicaUser,
                replicaPassword, replicaPoolSize, replicaConnectTimeoutMs, replicaReadOnlyForClients, sessionReplicationRole,
                synchronousCommit, applyWorkers, copyWorkers, batchMaxRows, copyMinRows, pipeline, groupMaxTransactions, groupMaxBytes, groupMaxMs, groupLingerUs, pollMaxFrames, idleMaxParkUs,
                retryInitialMs, retryMaxMs, durablePollMs, feedbackIntervalMs, pauseOnDivergence, sequenceHeadroom,
                sequenceSyncIntervalMs, adminBind, adminPort,
                adminToken, Map.copyOf(shown));
    }

    /** One line per key with the value in force, secrets masked: logged once at start. */
    public String describe() {
        StringBuilder out = new StringBuilder();
        new java.util.TreeMap<>(printable).forEach((k, v) -> out.append(k).append('=').append(v).append('\n'));
        return out.toString();
    }

    @Override
    public String toString() {
        return "ApplierConfig" + new java.util.TreeMap<>(printable);
    }
}
