package io.rdmarepl.shipper.config;

import io.rdmarepl.config.postgres.ServerAddress;
import static io.rdmarepl.shipper.config.ShipperKeys.*;

import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.config.Activation;
import io.rdmarepl.config.ConfigException;
import io.rdmarepl.config.ConfigReader;
import io.rdmarepl.config.ConfigSource;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Everything the shipper is told, typed and validated once at start-up. Every key has a type, a default and a
 * description in {@link ShipperKeys}; an unknown key is an error, except under {@code debezium.} (handed to the engine
 * as is), and a {@code standby.<name>.} key is known only for a name {@code standbys} lists.
 */
public record ShipperConfig(
        String sourceName,
        String databaseHost,
        int databasePort,
        String databaseName,
        String databaseUser,
        String databasePassword,
        String sslMode,
        String sslRootCert,
        String captureEngine,
        int receiveBufferBytes,
        String slotName,
        String publicationName,
        List<String> publicationTables,
        String snapshotMode,
        int snapshotChunkBytes,
        int snapshotParallelTables,
        List<StandbyConfig> standbys,
        Duration heartbeatInterval,
        Duration sequenceSyncInterval,
        Duration pollInterval,
        int maxBatchSize,
        int maxQueueSize,
        int disruptorSize,
        boolean shipInline,
        Duration connectTimeout,
        long fenceLeaseMs,
        Path fenceLeaseDir,
        GuardMode fenceGuard,
        InetSocketAddress adminAddress,
        String adminToken,
        Activation activation,
        SyncSettings sync,
        Map<String, String> debezium,
        int ringEpoch,
        int livenessRealtimePriority) {

    /** {@code fence.lease.dir}: shared memory, which every process of the host maps alike and a reboot empties. */
    public static final String DEFAULT_LEASE_DIR = "/dev/shm";

    /** {@code fence.lease.ms=auto} with {@code admin.token} set: as long as the example configurations use. */
    public static final long AUTO_LEASE_MS = 2000;
    /**
     * How often the shipper looks whether its lease ran out. Not configurable: with {@link #SELF_FENCE_TIMEOUT_MS} it is
     * part of the lease's terms, which every {@code POST /lease} answer tells the coordinator.
     */
    public static final long LEASE_CHECK_MS = 100;
    /** How long one self-fence attempt may take before it counts as failed (and is retried). */
    public static final long SELF_FENCE_TIMEOUT_MS = 2000;

    /**
     * Reads a properties file (UTF-8); problems are reported under its name.
     *
     * @throws IllegalArgumentException naming the file when it cannot be read
     * @throws ConfigException listing every bad or unknown key, its value (secrets masked) and the rule
     */
    public static ShipperConfig load(Path file) {
        return load(ConfigSource.read(file));
    }

    /** @throws ConfigException listing every bad or unknown key, its value (secrets masked) and the rule */
    public static ShipperConfig load(Properties properties) {
        return load(ConfigSource.of("shipper configuration", properties));
    }

    /** @throws ConfigException listing every bad or unknown key, its value (secrets masked) and the rule */
    public static ShipperConfig load(ConfigSource source) {
        ConfigReader r = new ConfigReader(source, ALL);
        String sourceName = r.get(SOURCE_NAME);
        String host = r.get(DATABASE_HOST);
        int port = r.get(DATABASE_PORT);
        String database = r.get(DATABASE_NAME);
        String user = r.get(DATABASE_USER);
        String password = r.get(DATABASE_PASSWORD);
        String sslMode = r.get(DATABASE_SSLMODE);
        String sslRootCert = r.get(DATABASE_SSLROOTCERT);
        if (sslMode.startsWith("verify") && sslRootCert.isEmpty()) {
            r.problem(DATABASE_SSLROOTCERT, "", "must name the certificate authority's PEM file when database.sslmode is " + sslMode);
        } else if (!sslRootCert.isEmpty() && !Files.isReadable(Path.of(sslRootCert))) {
            r.problem(DATABASE_SSLROOTCERT, sslRootCert, "is not a readable file");
        }
        String engine = r.get(CAPTURE_ENGINE);
        if (ServerAddress.isSocketDirectory(host)) {
            if (!sslMode.equals("disable") && !sslMode.equals("allow") && !sslMode.equals("prefer")) {
                r.problem(DATABASE_SSLMODE, sslMode, "must be disable, allow or prefer when database.host is a socket directory ("
                        + host + "): PostgreSQL offers no TLS over its Unix-domain socket");
            }
            if (engine.equals("debezium")) {
                r.problem(CAPTURE_ENGINE, engine, "reaches the primary over TCP only; database.host names a socket directory ("
                        + host + "): give the primary's host name, or use capture.engine=pgoutput");
            }
        }
        int receiveBuffer = r.get(CAPTURE_RECEIVE_BUFFER_BYTES);
        String slot = r.get(SLOT_NAME);
        String publication = r.get(PUBLICATION_NAME);
        List<String> tables = r.get(PUBLICATION_TABLES);
        for (String table : tables) {
            if (!table.matches("[^.\\s]+\\.[^.\\s]+")) {
                r.problem(PUBLICATION_TABLES, table, "each entry must be schema.table");
            } else if (InternalSchema.is(table.substring(0, table.indexOf('.')))) {
                r.problem(PUBLICATION_TABLES, table, "schema " + InternalSchema.NAME
                        + " holds the applier's bookkeeping (rdmarepl.applied_position) and is never captured");
            }
        }
        String snapshot = r.get(SNAPSHOT_MODE);
        int chunkBytes = r.get(SNAPSHOT_CHUNK_BYTES);
        int parallelTables = r.get(SNAPSHOT_PARALLEL_TABLES);
        List<StandbyConfig> standbys = new ArrayList<>();
        List<String> names = r.get(STANDBYS);
        for (String name : names == null ? List.<String>of() : names) {
            ChannelUri uri = r.get(STANDBY_URI.named(name));
            boolean required = r.get(STANDBY_REQUIRED.named(name));
            if (uri != null) {
                standbys.add(new StandbyConfig(name, uri, required));
            }
        }
        if (!standbys.isEmpty() && standbys.stream().noneMatch(StandbyConfig::required)) {
            r.problem(STANDBY_REQUIRED, "false", "at least one standby must be required, or nothing would ever be acknowledged");
        }
        Duration heartbeat = Duration.ofMillis(r.get(HEARTBEAT_INTERVAL_MS));
        Duration sequenceSync = Duration.ofMillis(r.get(SEQUENCE_SYNC_INTERVAL_MS));
        Duration poll = Duration.ofMillis(r.get(CAPTURE_POLL_INTERVAL_MS));
        int batch = r.get(CAPTURE_MAX_BATCH_SIZE);
        int queue = r.get(CAPTURE_MAX_QUEUE_SIZE);
        if (queue <= batch) {
            r.problem(CAPTURE_MAX_QUEUE_SIZE, Integer.toString(queue), "must be larger than capture.max.batch.size (" + batch + ")");
        }
        int events = r.get(SHIP_BUFFER_EVENTS);
        boolean shipInline = r.get(SHIP_INLINE);
        Duration connect = Duration.ofMillis(r.get(STANDBY_CONNECT_TIMEOUT_MS));
        String token = r.get(ADMIN_TOKEN);
        long lease = r.get(FENCE_LEASE_MS).orElse(token.isEmpty() ? 0 : AUTO_LEASE_MS);
        Path leaseDir = Path.of(r.get(FENCE_LEASE_DIR));
        if (lease > 0 && !(Files.isDirectory(leaseDir) && Files.isWritable(leaseDir))) {
            r.problem(FENCE_LEASE_DIR, leaseDir.toString(), "is not a writable directory (the lease file rdmarepl-lease-<source.name> goes"
                    + " there while fence.lease.ms is " + lease + ")");
        }
        GuardMode guard = r.get(FENCE_GUARD);
        SyncSettings sync = sync(r, (int) standbys.stream().filter(StandbyConfig::required).count());
        if (sync.enabled() && !sync.strict() && lease > 0 && sync.degradeAfterMs() <= selfFencedAfterMs(lease)) {
            r.problem(SYNC_DEGRADE_AFTER_MS, Long.toString(sync.degradeAfterMs()), "must be longer than fence.lease.ms ("
                    + lease + ") + the lease check (" + LEASE_CHECK_MS + " ms) + a self-fence's time limit (" + SELF_FENCE_TIMEOUT_MS
                    + " ms) = " + selfFencedAfterMs(lease) + " ms, or a primary cut off from its standbys and the coordinator"
                    + " releases waiting commits before it fences itself, and a failover loses them; raise it, or 0 (strict)");
        }
        Activation activation = r.get(ACTIVATION);
        int ringEpoch = r.get(RING_EPOCH);
        int livenessRealtimePriority = r.get(LIVENESS_REALTIME_PRIORITY);
        InetSocketAddress admin = r.get(ADMIN_ADDRESS);
        Map<String, String> debezium = r.under(DEBEZIUM);
        String schemaInclude = debezium.get("schema.include.list");
        if (schemaInclude != null && includesInternalSchema(schemaInclude)) {
            r.problemUnder(DEBEZIUM, "schema.include.list", schemaInclude, "must not include schema " + InternalSchema.NAME
                    + " (the applier's bookkeeping is never captured)");
        }
        r.rejectUnknownKeys();
        r.throwIfInvalid();
        return new ShipperConfig(sourceName, host, port, database, user, password, sslMode, sslRootCert, engine, receiveBuffer, slot, publication, tables, snapshot,
                chunkBytes, parallelTables, List.copyOf(standbys), heartbeat, sequenceSync, poll, batch, queue, events, shipInline, connect, lease, leaseDir, guard, admin, token, activation,
                sync, Map.copyOf(debezium), ringEpoch, livenessRealtimePriority);
    }

    /** This configuration with another {@code snapshot.mode} (an activation always copies from a fresh slot). */
    public ShipperConfig withSnapshotMode(String mode) {
        return new ShipperConfig(sourceName, databaseHost, databasePort, databaseName, databaseUser, databasePassword, sslMode,
                sslRootCert, captureEngine, receiveBufferBytes, slotName,
                publicationName, publicationTables, mode, snapshotChunkBytes, snapshotParallelTables, standbys, heartbeatInterval, sequenceSyncInterval,
                pollInterval, maxBatchSize,
                maxQueueSize, disruptorSize, shipInline, connectTimeout, fenceLeaseMs, fenceLeaseDir, fenceGuard, adminAddress, adminToken, activation, sync, debezium, ringEpoch, livenessRealtimePriority);
    }

    /**
     * This configuration shipping at {@code epoch}: a standby's ring at a newer epoch refuses it. Zero ships at
     * whatever epoch the ring is at (an activation by hand, without an epoch).
     */
    public ShipperConfig withRingEpoch(int epoch) {
        if (epoch < 0) {
            throw new IllegalArgumentException("ring epoch must be 0 (any) or positive, got " + epoch);
        }
        return new ShipperConfig(sourceName, databaseHost, databasePort, databaseName, databaseUser, databasePassword, sslMode,
                sslRootCert, captureEngine, receiveBufferBytes, slotName,
                publicationName, publicationTables, snapshotMode, snapshotChunkBytes, snapshotParallelTables, standbys, heartbeatInterval, sequenceSyncInterval,
                pollInterval, maxBatchSize,
                maxQueueSize, disruptorSize, shipInline, connectTimeout, fenceLeaseMs, fenceLeaseDir, fenceGuard, adminAddress, adminToken, activation, sync, debezium, epoch, livenessRealtimePriority);
    }

    /**
     * Where this shipper keeps the epoch of its last activation (or its retirement), beside its lease file:
     * {@code <fence.lease.dir>/rdmarepl-epoch-<source.name>}.
     */
    public Path epochFile() {
        return fenceLeaseDir.resolve("rdmarepl-epoch-" + sourceName.replaceAll("[^A-Za-z0-9._-]", "_"));
    }

    /**
     * The lease file this shipper and its lease guard share: {@code <fence.lease.dir>/rdmarepl-lease-<source.name>}, the
     * name's characters other than letters, digits, {@code .}, {@code _} and {@code -} written as {@code _}.
     */
    public Path leaseFile() {
        return fenceLeaseDir.resolve("rdmarepl-lease-" + sourceName.replaceAll("[^A-Za-z0-9._-]", "_"));
    }

    /** The primary a lease is of, as the lease file's header names it: {@code host:port/database}. */
    public String primaryAddress() {
        return databaseHost + ":" + databasePort + "/" + databaseName;
    }

    /** Who and where the primary is, for messages: {@code user@host:port/database}, or the socket file for the address. */
    public String databaseDescription() {
        return databaseUser + "@" + address() + "/" + databaseName;
    }

    /**
     * The primary's JDBC URL: TLS as {@code database.sslmode} and {@code database.sslrootcert} say, or through its
     * Unix-domain socket when {@code database.host} is a directory.
     */
    public String jdbcUrl() {
        return address().jdbcUrl(databaseName, sslMode, sslRootCert);
    }

    /** Where the primary is reached: {@code database.host} and {@code database.port}. */
    public ServerAddress address() {
        return new ServerAddress(databaseHost, databasePort);
    }

    /** The resolved configuration for the start-up log line, secrets masked. */
    public String describe() {
        return "source=" + sourceName + " engine=" + captureEngine + " database=" + databaseDescription() + " sslmode=" + sslMode
                + " slot=" + slotName + " publication=" + publicationName + " tables=" + (publicationTables.isEmpty() ? "all" : publicationTables)
                + " snapshot=" + snapshotMode + (captureEngine.equals("pgoutput") ? " copy sessions=" + snapshotParallelTables : "")
                + " standbys=" + standbys + " heartbeat=" + heartbeatInterval.toMillis() + "ms"
                + (livenessRealtimePriority == 0 ? "" : " (watch at SCHED_FIFO " + livenessRealtimePriority + ")") + " lease="
                + (fenceLeaseMs == 0 ? "off" : fenceLeaseMs + "ms (guard " + fenceGuard.text() + ", " + leaseFile() + ")") + " sequences every "
                + sequenceSyncInterval.toMillis() + "ms poll="
                + pollInterval.toMillis() + "ms mode=" + sync.describe() + " activation=" + activation.text() + " epoch=" + (ringEpoch == 0 ? "any" : ringEpoch) + " admin=" + adminAddress + (adminToken.isEmpty() ? " (no control token)" : " (control token set)");
    }

    /** At most this long after the last word from a standby or the coordinator, a reachable primary refuses writes. */
    public static long selfFencedAfterMs(long leaseMs) {
        return leaseMs + LEASE_CHECK_MS + SELF_FENCE_TIMEOUT_MS;
    }

    private static SyncSettings sync(ConfigReader r, int requiredStandbys) {
        boolean enabled = "sync".equals(r.get(REPLICATION_MODE));
        int standbys = r.get(SYNC_STANDBYS);
        if (enabled && requiredStandbys > 0 && standbys > requiredStandbys) {
            r.problem(SYNC_STANDBYS, Integer.toString(standbys), "must be at most the number of required standbys ("
                    + requiredStandbys + ")");
        }
        boolean applied = "remote_apply".equals(r.get(SYNC_LEVEL));
        long degradeAfter = r.get(SYNC_DEGRADE_AFTER_MS);
        return enabled ? new SyncSettings(true, standbys, applied, degradeAfter) : SyncSettings.ASYNC;
    }

    /** Whether one of the comma-separated regular expressions matches the internal schema's name, as Debezium matches. */
    private static boolean includesInternalSchema(String regexList) {
        for (String regex : list(regexList)) {
            try {
                if (java.util.regex.Pattern.compile(regex, java.util.regex.Pattern.CASE_INSENSITIVE).matcher(InternalSchema.NAME).matches()) {
                    return true;
                }
            } catch (java.util.regex.PatternSyntaxException e) {
                return false; // Debezium reports it with its own words
            }
        }
        return false;
    }

    private static List<String> list(String value) {
        List<String> items = new ArrayList<>();
        for (String item : value.split(",")) {
            if (!item.isBlank()) {
                items.add(item.trim());
            }
        }
        return items;
    }
}
