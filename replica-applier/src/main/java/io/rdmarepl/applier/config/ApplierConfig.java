package io.rdmarepl.applier.config;

import io.rdmarepl.config.Activation;
import static io.rdmarepl.applier.config.ApplierKeys.*;

import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.channel.ring.RingDescriptor;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

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
        int batchMaxRows,
        int groupMaxTransactions,
        long groupMaxBytes,
        long groupMaxMs,
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

    private static final Set<String> SYNCHRONOUS_COMMIT = Set.of("off", "local", "on", "remote_write", "remote_apply");
    private static final Set<String> REPLICATION_ROLES = Set.of("replica", "origin");
    private static final Set<String> DIVERGENCE_POLICIES = Set.of("pause", "log");

    /** The defaults, overridden by {@code overrides} ({@code key, value, key, value ...}). */
    public static ApplierConfig of(String... overrides) {
        Properties properties = new Properties();
        for (int i = 0; i + 1 < overrides.length; i += 2) {
            properties.setProperty(overrides[i], overrides[i + 1]);
        }
        return load(properties);
    }

    /** Reads a properties file (UTF-8). */
    public static ApplierConfig load(Path file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read configuration file " + file + ": " + e.getMessage(), e);
        }
        return load(properties);
    }

    /**
     * @throws ConfigException listing every bad or unknown key at once
     */
    public static ApplierConfig load(Properties p) {
        ConfigReader r = new ConfigReader(p, ALL);
        String source = r.nonEmpty(SOURCE_NAME);
        Activation activation = Activation.of(r.oneOf(ACTIVATION, Activation.texts()));
        ChannelUri ringUri = r.parsed(RING_URI, ChannelUri::parse);
        int capacity = r.intValue(RING_CAPACITY_BYTES, 4096, 1 << 30);
        if (Integer.bitCount(capacity) != 1) {
            r.problem(RING_CAPACITY_BYTES, String.valueOf(capacity), "must be a power of two");
        } else {
            try {
                RingDescriptor.checkCapacity(capacity);
            } catch (RuntimeException e) {
                r.problem(RING_CAPACITY_BYTES, String.valueOf(capacity), e.getMessage());
            }
        }
        int epoch = r.intValue(RING_EPOCH, 1, Integer.MAX_VALUE);
        String url = r.nonEmpty(REPLICA_JDBC_URL);
        if (!url.isEmpty() && !url.startsWith("jdbc:postgresql:")) {
            r.problem(REPLICA_JDBC_URL, url, "must start with jdbc:postgresql:");
        }
        String user = r.nonEmpty(REPLICA_USER);
        String password = r.string(REPLICA_PASSWORD);
        int poolSize = r.intValue(REPLICA_POOL_SIZE, 2, 64);
        long connectTimeoutMs = r.longValue(REPLICA_CONNECT_TIMEOUT_MS, 250, 600_000);
        boolean readOnly = r.bool(REPLICA_READ_ONLY_FOR_CLIENTS);
        String role = r.oneOf(REPLICA_SESSION_REPLICATION_ROLE, REPLICATION_ROLES);
        String syncCommit = r.oneOf(APPLY_SYNCHRONOUS_COMMIT, SYNCHRONOUS_COMMIT);
        int workers = r.intValue(APPLY_WORKERS, 1, 64);
        if (workers > 1 && !role.equals("replica")) {
            r.problem(APPLY_WORKERS, String.valueOf(workers), "needs " + REPLICA_SESSION_REPLICATION_ROLE.name()
                    + "=replica (with origin, triggers and foreign keys fire and may read rows another connection is"
                    + " still writing)");
        }
        int batchRows = r.intValue(APPLY_BATCH_MAX_ROWS, 1, 100_000);
        int groupTx = r.intValue(APPLY_GROUP_MAX_TRANSACTIONS, 1, 1_000_000);
        long groupBytes = r.longValue(APPLY_GROUP_MAX_BYTES, 1024, 1L << 30);
        long groupMs = r.longValue(APPLY_GROUP_MAX_MS, 0, 60_000);
        int pollFrames = r.intValue(APPLY_POLL_MAX_FRAMES, 1, 65_536);
        long parkUs = r.longValue(APPLY_IDLE_MAX_PARK_US, 1, 1_000_000);
        long retryInitial = r.longValue(APPLY_RETRY_INITIAL_MS, 1, 600_000);
        long retryMax = r.longValue(APPLY_RETRY_MAX_MS, 1, 3_600_000);
        if (retryMax < retryInitial) {
            r.problem(APPLY_RETRY_MAX_MS, String.valueOf(retryMax), "must be at least apply.retry.initial.ms (" + retryInitial + ")");
        }
        long durablePoll = r.longValue(APPLY_DURABLE_POLL_MS, 1, 60_000);
        long feedbackMs = r.longValue(APPLY_FEEDBACK_INTERVAL_MS, 1, 60_000);
        boolean pauseOnDivergence = r.oneOf(APPLY_ON_DIVERGENCE, DIVERGENCE_POLICIES).equals("pause");
        long headroom = r.longValue(PROMOTE_SEQUENCE_HEADROOM, 0, Long.MAX_VALUE / 4);
        long sequenceSyncMs = r.longValue(PROMOTE_SEQUENCE_SYNC_INTERVAL_MS, 10, 3_600_000);
        String adminBind = r.nonEmpty(ADMIN_BIND);
        int adminPort = r.intValue(ADMIN_PORT, 0, 65_535);
        String adminToken = r.string(ADMIN_TOKEN);
        r.checkUnknownKeys();
        r.throwIfInvalid();
        return new ApplierConfig(source, activation, ringUri, capacity, epoch, url, user, password, poolSize, connectTimeoutMs,
                readOnly, role, syncCommit, workers, batchRows, groupTx, groupBytes, groupMs, pollFrames, parkUs, retryInitial,
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
                synchronousCommit, applyWorkers, batchMaxRows, groupMaxTransactions, groupMaxBytes, groupMaxMs, pollMaxFrames, idleMaxParkUs,
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
