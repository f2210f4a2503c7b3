package io.rdmarepl.shipper.config;

import io.rdmarepl.config.Activation;
import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.config.ConfigProblems;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * Everything the shipper is told, typed and validated once at start-up. Every key has a default
 * (see {@link #KEYS}); an unknown key is an error, except under {@code debezium.} (handed to the
 * engine as is) and {@code standby.<name>.}.
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
        Duration connectTimeout,
        long fenceLeaseMs,
        Path fenceLeaseDir,
        GuardMode fenceGuard,
        InetSocketAddress adminAddress,
        String adminToken,
        Activation activation,
        SyncSettings sync,
        Map<String, String> debezium,
        int ringEpoch) {

    /** {@code fence.lease.dir}: shared memory, which every process of the host maps alike and a reboot empties. */
    public static final String DEFAULT_LEASE_DIR = "/dev/shm";

    /** Key, default, description: docs/configuration.md's table is this list. */
    public static final List<String[]> KEYS = List.of(
            new String[] {"source.name", "primary", "name of this primary in the applier's rdmarepl.applied_position"},
            new String[] {"database.host", "localhost", "primary PostgreSQL host"},
            new String[] {"database.port", "5432", "primary PostgreSQL port"},
            new String[] {"database.name", "postgres", "database to capture"},
            new String[] {"database.user", "postgres", "user with REPLICATION and SELECT on the captured tables"},
            new String[] {"database.password", "", "its password (masked in every message)"},
            new String[] {"database.sslmode", "prefer", "TLS to the primary, for the replication connection and every SQL connection: disable, prefer, require, verify-ca or verify-full (as libpq)"},
            new String[] {"database.sslrootcert", "", "PEM file of the certificate authority that signed the primary's certificate (verify-ca, verify-full)"},
            new String[] {"capture.engine", "pgoutput", "pgoutput: the shipper reads the replication stream itself (one thread on the socket, acknowledgements confirmed to the slot the moment the standbys hold them); debezium: Debezium's embedded engine"},
            new String[] {"slot.name", "rdmarepl", "logical replication slot (pgoutput), created if missing"},
            new String[] {"publication.name", "rdmarepl", "publication, created if missing"},
            new String[] {"publication.tables", "", "comma-separated schema.table list; empty = all tables"},
            new String[] {"snapshot.mode", "no_data", "no_data: stream changes from the slot's position on; initial: copy the published tables first (once per slot), then stream"},
            new String[] {"snapshot.chunk.bytes", "8388608", "initial copy: encoded bytes per replica transaction (the memory a copy needs on each side)"},
            new String[] {"snapshot.parallel.tables", "2", "initial copy, native engine: tables copied at once, each by its own session in the slot's exported snapshot; each session holds up to two chunks in memory"},
            new String[] {"standbys", "", "comma-separated standby names; each needs standby.<name>.uri"},
            new String[] {"standby.<name>.uri", "", "the standby's ring: shm:///dev/shm/NAME, softrdma://host:port or rdma://host:port"},
            new String[] {"standby.<name>.required", "true", "offsets wait for this standby's durable position"},
            new String[] {"heartbeat.interval.ms", "5", "heartbeat frames to each standby while idle"},
            new String[] {"sequence.sync.interval.ms", "1000", "how often the primary's sequences (every one in the published tables' schemas) are read; the changed ones go to every standby between transactions, and a fresh reading precedes every switchover marker"},
            new String[] {"capture.poll.interval.ms", "5", "Debezium poll.interval.ms: the capture latency floor while busy, CPU while idle"},
            new String[] {"capture.max.batch.size", "2048", "Debezium max.batch.size"},
            new String[] {"capture.max.queue.size", "8192", "Debezium max.queue.size"},
            new String[] {"ship.buffer.events", "16384", "Disruptor ring size in records (power of two)"},
            new String[] {"standby.connect.timeout.ms", "30000", "how long to wait for a standby's ring at start"},
            new String[] {"fence.lease.ms", "auto", "self-fence after this long without word from a standby or the coordinator: the shipper stops shipping, and its lease guard, a process that outlives it, makes the primary read-only; auto = 2000 when admin.token is set (a coordinator can renew the lease), else 0 = off"},
            new String[] {"fence.lease.dir", DEFAULT_LEASE_DIR, "directory of the lease file rdmarepl-lease-<source.name>, which the shipper writes its last contact into and its lease guard reads (fence.lease.ms > 0); a tmpfs, so a reboot forgets it"},
            new String[] {"fence.guard", "process", "who fences the primary when the lease runs out, outliving the shipper: process = the shipper starts a lease guard process of its own session (or adopts one that runs); external = one started apart (rdmarepl lease-guard, e.g. its systemd unit) must run, or the shipper refuses to start"},
            new String[] {"replication.mode", "async", "async: commits on the primary never wait for the standbys; sync: a commit returns only once sync.standbys standbys hold it (the primary waits through synchronous_standby_names)"},
            new String[] {"sync.standbys", "1", "sync: how many of the required standbys must hold a commit before it returns (ANY k; at most the number required)"},
            new String[] {"sync.level", "remote_flush", "sync: remote_flush: durable on the standby; remote_apply: also applied there (visible to its readers)"},
            new String[] {"sync.degrade.after.ms", "0", "sync: 0 = strict, commits wait as long as the standbys do not answer; N = after N ms waiting, degrade to async (logged, in /status and a metric) until the standbys caught up"},
            new String[] {"activation", "immediate", "immediate: capture and ship from the start; on-request: serve only the admin endpoint until the coordinator activates this shipper (POST /activate), for a member that is a standby now"},
            new String[] {"ring.epoch", "1", "the epoch this shipper ships at when it starts by itself (activation=immediate): a standby whose ring is at a newer epoch (a failover since) refuses it, and it waits for the coordinator; an activation ships at the coordinator's epoch, which later starts keep (fence.lease.dir/rdmarepl-epoch-<source.name>, with fence.lease.ms > 0). As the applier's ring.epoch"},
            new String[] {"admin.address", "127.0.0.1:7480", "admin HTTP endpoint (/health, /status, /metrics); port 0 picks a free one"},
            new String[] {"admin.token", "", "bearer token for control actions; empty disables them"},
            new String[] {"debezium.*", "", "passed to the Debezium engine as is (without the prefix)"});

    private static final Set<String> SECRETS = Set.of("database.password", "admin.token");

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
     * @throws IllegalArgumentException listing every bad key, its value (secrets masked) and the rule
     */
    public static ShipperConfig load(Properties properties) {
        ConfigProblems p = new ConfigProblems(properties, SECRETS, "shipper");
        String sourceName = p.string("source.name", "primary");
        String host = p.string("database.host", "localhost");
        int port = p.integer("database.port", 5432, 1, 65535);
        String database = p.string("database.name", "postgres");
        String user = p.string("database.user", "postgres");
        String password = p.string("database.password", "");
        String sslMode = p.oneOf("database.sslmode", "prefer", Set.of("disable", "prefer", "require", "verify-ca", "verify-full"));
        String sslRootCert = p.string("database.sslrootcert", "");
        if (sslMode.startsWith("verify") && sslRootCert.isEmpty()) {
            p.problem("database.sslrootcert", "", "must name the certificate authority's PEM file when database.sslmode is " + sslMode);
        } else if (!sslRootCert.isEmpty() && !java.nio.file.Files.isReadable(java.nio.file.Path.of(sslRootCert))) {
            p.problem("database.sslrootcert", sslRootCert, "is not a readable file");
        }
        String engine = p.oneOf("capture.engine", "pgoutput", Set.of("pgoutput", "debezium"));
        String slot = p.string("slot.name", "rdmarepl");
        if (!slot.matches("[a-z0-9_]{1,63}")) {
            p.problem("slot.name", slot, "must be 1-63 lower-case letters, digits or underscores");
        }
        String publication = p.string("publication.name", "rdmarepl");
        List<String> tables = list(p.string("publication.tables", ""));
        for (String table : tables) {
            if (!table.matches("[^.\\s]+\\.[^.\\s]+")) {
                p.problem("publication.tables", table, "each entry must be schema.table");
            } else if (InternalSchema.is(table.substring(0, table.indexOf('.')))) {
                p.problem("publication.tables", table, "schema " + InternalSchema.NAME
                        + " holds the applier's bookkeeping (rdmarepl.applied_position) and is never captured");
            }
        }
        String snapshot = p.oneOf("snapshot.mode", "no_data", Set.of("no_data", "initial"));
        int chunkBytes = p.integer("snapshot.chunk.bytes", 8 << 20, 64 << 10, 512 << 20);
        int parallelTables = p.integer("snapshot.parallel.tables", 2, 1, 64);
        List<StandbyConfig> standbys = new ArrayList<>();
        List<String> names = list(p.string("standbys", ""));
        if (names.isEmpty()) {
            p.problem("standbys", "", "name at least one standby");
        }
        for (String name : names) {
            String uriKey = "standby." + name + ".uri";
            String uri = p.string(uriKey, "");
            boolean required = p.bool("standby." + name + ".required", true);
            try {
                standbys.add(new StandbyConfig(name, ChannelUri.parse(uri), required));
            } catch (IllegalArgumentException e) {
                p.problem(uriKey, uri, e.getMessage());
            }
        }
        if (!standbys.isEmpty() && standbys.stream().noneMatch(StandbyConfig::required)) {
            p.problem("standby.<name>.required", "false", "at least one standby must be required, or nothing would ever be acknowledged");
        }
        Duration heartbeat = Duration.ofMillis(p.longValue("heartbeat.interval.ms", 5, 1, 60_000));
        Duration sequenceSync = Duration.ofMillis(p.longValue("sequence.sync.interval.ms", 1000, 10, 3_600_000));
        Duration poll = Duration.ofMillis(p.longValue("capture.poll.interval.ms", 5, 1, 60_000));
        int batch = p.integer("capture.max.batch.size", 2048, 1, 1_000_000);
        int queue = p.integer("capture.max.queue.size", 8192, 2, 10_000_000);
        if (queue <= batch) {
            p.problem("capture.max.queue.size", Integer.toString(queue), "must be larger than capture.max.batch.size (" + batch + ")");
        }
        int events = p.integer("ship.buffer.events", 16384, 64, 1 << 24);
        if (Integer.bitCount(events) != 1) {
            p.problem("ship.buffer.events", Integer.toString(events), "must be a power of two");
        }
        Duration connect = Duration.ofMillis(p.longValue("standby.connect.timeout.ms", 30_000, 0, 3_600_000));
        String token = p.string("admin.token", "");
        long lease = lease(p, token);
        Path leaseDir = Path.of(p.string("fence.lease.dir", DEFAULT_LEASE_DIR));
        if (lease > 0 && !(Files.isDirectory(leaseDir) && Files.isWritable(leaseDir))) {
            p.problem("fence.lease.dir", leaseDir.toString(), "is not a writable directory (the lease file rdmarepl-lease-<source.name> goes"
                    + " there while fence.lease.ms is " + lease + ")");
        }
        GuardMode guard = GuardMode.of(p.oneOf("fence.guard", GuardMode.PROCESS.text(), GuardMode.texts()));
        SyncSettings sync = sync(p, (int) standbys.stream().filter(StandbyConfig::required).count());
        if (sync.enabled() && !sync.strict() && lease > 0 && sync.degradeAfterMs() <= selfFencedAfterMs(lease)) {
            p.problem("sync.degrade.after.ms", Long.toString(sync.degradeAfterMs()), "must be longer than fence.lease.ms ("
                    + lease + ") + the lease check (" + LEASE_CHECK_MS + " ms) + a self-fence's time limit (" + SELF_FENCE_TIMEOUT_MS
                    + " ms) = " + selfFencedAfterMs(lease) + " ms, or a primary cut off from its standbys and the coordinator"
                    + " releases waiting commits before it fences itself, and a failover loses them; raise it, or 0 (strict)");
        }
        Activation activation = Activation.of(p.oneOf("activation", Activation.IMMEDIATE.text(), Activation.texts()));
        int ringEpoch = p.integer("ring.epoch", 1, 1, Integer.MAX_VALUE);
        InetSocketAddress admin = address(p, p.string("admin.address", "127.0.0.1:7480"));
        Map<String, String> debezium = new LinkedHashMap<>();
        for (String key : properties.stringPropertyNames()) {
            if (key.startsWith("debezium.")) {
                debezium.put(key.substring("debezium.".length()), properties.getProperty(key));
            }
        }
        String schemaInclude = debezium.get("schema.include.list");
        if (schemaInclude != null && includesInternalSchema(schemaInclude)) {
            p.problem("debezium.schema.include.list", schemaInclude, "must not include schema " + InternalSchema.NAME
                    + " (the applier's bookkeeping is never captured)");
        }
        p.rejectUnknown(Set.of("debezium."));
        p.throwIfAny("shipper configuration");
        return new ShipperConfig(sourceName, host, port, database, user, password, sslMode, sslRootCert, engine, slot, publication, tables, snapshot,
                chunkBytes, parallelTables, List.copyOf(standbys), heartbeat, sequenceSync, poll, batch, queue, events, connect, lease, leaseDir, guard, admin, token, activation,
                sync, Map.copyOf(debezium), ringEpoch);
    }

    /** This configuration with another {@code snapshot.mode} (an activation always copies from a fresh slot). */
    public ShipperConfig withSnapshotMode(String mode) {
        return new ShipperConfig(sourceName, databaseHost, databasePort, databaseName, databaseUser, databasePassword, sslMode,
                sslRootCert, captureEngine, slotName,
                publicationName, publicationTables, mode, snapshotChunkBytes, snapshotParallelTables, standbys, heartbeatInterval, sequenceSyncInterval,
                pollInterval, maxBatchSize,
                maxQueueSize, disruptorSize, connectTimeout, fenceLeaseMs, fenceLeaseDir, fenceGuard, adminAddress, adminToken, activation, sync, debezium, ringEpoch);
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
                sslRootCert, captureEngine, slotName,
                publicationName, publicationTables, snapshotMode, snapshotChunkBytes, snapshotParallelTables, standbys, heartbeatInterval, sequenceSyncInterval,
                pollInterval, maxBatchSize,
                maxQueueSize, disruptorSize, connectTimeout, fenceLeaseMs, fenceLeaseDir, fenceGuard, adminAddress, adminToken, activation, sync, debezium, epoch);
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

    /** Who and where the primary is, for messages: {@code user@host:port/database}. */
    public String databaseDescription() {
        return databaseUser + "@" + databaseHost + ":" + databasePort + "/" + databaseName;
    }

    /** The primary's JDBC URL, TLS as {@code database.sslmode} and {@code database.sslrootcert} say. */
    public String jdbcUrl() {
        String url = "jdbc:postgresql://" + databaseHost + ":" + databasePort + "/" + databaseName + "?sslmode=" + sslMode;
        return sslRootCert.isEmpty() ? url : url + "&sslrootcert=" + java.net.URLEncoder.encode(sslRootCert,
                java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The resolved configuration for the start-up log line, secrets masked. */
    public String describe() {
        return "source=" + sourceName + " engine=" + captureEngine + " database=" + databaseUser + "@" + databaseHost + ":"
                + databasePort + "/" + databaseName + " sslmode=" + sslMode
                + " slot=" + slotName + " publication=" + publicationName + " tables=" + (publicationTables.isEmpty() ? "all" : publicationTables)
                + " snapshot=" + snapshotMode + (captureEngine.equals("pgoutput") ? " copy sessions=" + snapshotParallelTables : "")
                + " standbys=" + standbys + " heartbeat=" + heartbeatInterval.toMillis() + "ms lease="
                + (fenceLeaseMs == 0 ? "off" : fenceLeaseMs + "ms (guard " + fenceGuard.text() + ", " + leaseFile() + ")") + " sequences every "
                + sequenceSyncInterval.toMillis() + "ms poll="
                + pollInterval.toMillis() + "ms mode=" + sync.describe() + " activation=" + activation.text() + " epoch=" + (ringEpoch == 0 ? "any" : ringEpoch) + " admin=" + adminAddress + (adminToken.isEmpty() ? " (no control token)" : " (control token set)");
    }

    /**
     * {@code fence.lease.ms}: {@code auto} is {@link #AUTO_LEASE_MS} when {@code admin.token} is set (only then can a
     * coordinator renew the lease, fence this shipper, and promote its standby), else 0; a number is taken as it is.
     */
    private static long lease(ConfigProblems p, String token) {
        String value = p.string("fence.lease.ms", "auto");
        if (value.equals("auto")) {
            return token.isEmpty() ? 0 : AUTO_LEASE_MS;
        }
        try {
            long lease = Long.parseLong(value);
            if (lease == 0 || lease >= 100 && lease <= 3_600_000) {
                return lease;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        p.problem("fence.lease.ms", value, "must be auto, 0 (off) or between 100 and 3600000");
        return 0;
    }

    /** At most this long after the last word from a standby or the coordinator, a reachable primary refuses writes. */
    public static long selfFencedAfterMs(long leaseMs) {
        return leaseMs + LEASE_CHECK_MS + SELF_FENCE_TIMEOUT_MS;
    }

    private static SyncSettings sync(ConfigProblems p, int requiredStandbys) {
        boolean enabled = "sync".equals(p.oneOf("replication.mode", "async", Set.of("async", "sync")));
        int standbys = p.integer("sync.standbys", 1, 1, 1000);
        if (enabled && requiredStandbys > 0 && standbys > requiredStandbys) {
            p.problem("sync.standbys", Integer.toString(standbys), "must be at most the number of required standbys ("
                    + requiredStandbys + ")");
        }
        boolean applied = "remote_apply".equals(p.oneOf("sync.level", "remote_flush", Set.of("remote_flush", "remote_apply")));
        long degradeAfter = p.longValue("sync.degrade.after.ms", 0, 0, 3_600_000);
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

    private static InetSocketAddress address(ConfigProblems p, String value) {
        int colon = value.lastIndexOf(':');
        try {
            if (colon > 0) {
                int port = Integer.parseInt(value.substring(colon + 1));
                if (port >= 0 && port <= 65535) {
                    return new InetSocketAddress(value.substring(0, colon), port);
                }
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        p.problem("admin.address", value, "must be host:port with port 0..65535");
        return new InetSocketAddress("127.0.0.1", 0);
    }
}
