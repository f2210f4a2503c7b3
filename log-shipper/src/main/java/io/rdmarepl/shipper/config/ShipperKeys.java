package io.rdmarepl.shipper.config;

import static io.rdmarepl.config.ConfigKey.key;
import static io.rdmarepl.config.ConfigKey.secret;
import static io.rdmarepl.config.ValueTypes.bool;
import static io.rdmarepl.config.ValueTypes.choice;
import static io.rdmarepl.config.ValueTypes.hostPort;
import static io.rdmarepl.config.ValueTypes.integer;
import static io.rdmarepl.config.ValueTypes.list;
import static io.rdmarepl.config.ValueTypes.oneOf;
import static io.rdmarepl.config.ValueTypes.powerOfTwo;
import static io.rdmarepl.config.ValueTypes.text;
import static io.rdmarepl.config.ValueTypes.wholeNumber;

import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.config.Activation;
import io.rdmarepl.config.ConfigKey;
import io.rdmarepl.config.ConfigKeys;
import io.rdmarepl.config.ValueType;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.OptionalLong;

/**
 * Every key {@link ShipperConfig} reads: type and rules, default, description (docs/configuration/shipper.md's table is
 * made from these, and checked against them by ShipperKeysTest). The rules between keys are {@link ShipperConfig}'s.
 */
public final class ShipperKeys {
    /** {@code fence.lease.ms=auto}: as long as {@link ShipperConfig#AUTO_LEASE_MS} when a coordinator can renew it. */
    private static final ValueType<OptionalLong> LEASE = ValueType.of("auto, 0 or 100..3600000", text -> {
        if (text.equalsIgnoreCase("auto")) {
            return OptionalLong.empty();
        }
        try {
            long lease = Long.parseLong(text.replace("_", ""));
            if (lease == 0 || lease >= 100 && lease <= 3_600_000) {
                return OptionalLong.of(lease);
            }
        } catch (NumberFormatException e) {
            // the rule below says what is wrong
        }
        throw new IllegalArgumentException("must be auto, 0 (off) or between 100 and 3600000");
    }).shownAs(lease -> lease.isPresent() ? Long.toString(lease.getAsLong()) : "auto");

    public static final ConfigKey<String> SOURCE_NAME = key("source.name", text(), "primary",
            "name of this primary in the applier's rdmarepl.applied_position");
    public static final ConfigKey<String> DATABASE_HOST = key("database.host", text(), "localhost", "primary PostgreSQL host, or the directory of its Unix-domain socket (an absolute path, as libpq reads it: e.g. /var/run/postgresql); on the primary's own host the socket is some tens of microseconds quicker per transaction, TCP (capture.receive.buffer.bytes) costs the host less CPU in a backlog");
    public static final ConfigKey<Integer> DATABASE_PORT = key("database.port", integer(1, 65535), "5432", "primary PostgreSQL port");
    public static final ConfigKey<String> DATABASE_NAME = key("database.name", text(), "postgres", "database to capture");
    public static final ConfigKey<String> DATABASE_USER = key("database.user", text(), "postgres",
            "user with REPLICATION and SELECT on the captured tables");
    public static final ConfigKey<String> DATABASE_PASSWORD = secret("database.password", text(), "",
            "its password (masked in every message)");
    public static final ConfigKey<String> DATABASE_SSLMODE = key("database.sslmode",
            oneOf("disable", "prefer", "require", "verify-ca", "verify-full"), "prefer",
            "TLS to the primary, for the replication connection and every SQL connection: disable, prefer, require, verify-ca or verify-full (as libpq)");
    public static final ConfigKey<String> DATABASE_SSLROOTCERT = key("database.sslrootcert", text(), "",
            "PEM file of the certificate authority that signed the primary's certificate (verify-ca, verify-full)");
    public static final ConfigKey<String> CAPTURE_ENGINE = key("capture.engine", oneOf("pgoutput", "debezium"), "pgoutput",
            "pgoutput: the shipper reads the replication stream itself (one thread on the socket, acknowledgements confirmed to the slot the moment the standbys hold them); debezium: Debezium's embedded engine");
    public static final ConfigKey<Integer> CAPTURE_RECEIVE_BUFFER_BYTES = key("capture.receive.buffer.bytes",
            integer(0, 64 << 20).where(n -> n == 0 || n >= 4096, "must be 0 (the kernel's autotuning) or at least 4096")
                    .documentedAs("0, or 4096..67108864"), "65536",
            "pgoutput over TCP: the replication connection's receive buffer (SO_RCVBUF; 0 = the kernel's autotuning); a small one fills while a backlog is read in bites, so the walsender's sends coalesce into large segments and cost the primary's host less CPU (a Unix-domain socket has none); a shipper far from its primary: 0 (a fixed buffer also ends autotuning, and net.core.rmem_max caps it)");
    public static final ConfigKey<String> SLOT_NAME = key("slot.name",
            text().where(s -> s.matches("[a-z0-9_]{1,63}"), "must be 1-63 lower-case letters, digits or underscores")
                    .documentedAs("1-63 of a-z, 0-9, _"), "rdmarepl",
            "logical replication slot (pgoutput), created if missing");
    public static final ConfigKey<String> PUBLICATION_NAME = key("publication.name", text(), "rdmarepl",
            "publication, created if missing");
    public static final ConfigKey<List<String>> PUBLICATION_TABLES = key("publication.tables", list(), "",
            "comma-separated schema.table list; empty = all tables");
    public static final ConfigKey<String> SNAPSHOT_MODE = key("snapshot.mode", oneOf("no_data", "initial"), "no_data",
            "no_data: stream changes from the slot's position on; initial: copy the published tables first (once per slot), then stream");
    public static final ConfigKey<Integer> SNAPSHOT_CHUNK_BYTES = key("snapshot.chunk.bytes", integer(64 << 10, 512 << 20), "8388608",
            "initial copy: encoded bytes per replica transaction (the memory a copy needs on each side)");
    public static final ConfigKey<Integer> SNAPSHOT_PARALLEL_TABLES = key("snapshot.parallel.tables", integer(1, 64), "2",
            "initial copy, native engine: tables copied at once, each by its own session in the slot's exported snapshot; each session holds up to two chunks in memory");
    public static final ConfigKey<List<String>> STANDBYS = key("standbys",
            list().where(names -> !names.isEmpty(), "name at least one standby"), "",
            "comma-separated standby names; each needs standby.<name>.uri");
    public static final ConfigKey<ChannelUri> STANDBY_URI = key("standby.<name>.uri",
            ValueType.of("shm:///path, softrdma://host:port, rdma://host:port", text -> {
                if (text.isEmpty()) {
                    throw new IllegalArgumentException("must be set for every name in standbys");
                }
                return ChannelUri.parse(text);
            }), "",
            "the standby's ring: shm:///dev/shm/NAME, softrdma://host:port or rdma://host:port");
    public static final ConfigKey<Boolean> STANDBY_REQUIRED = key("standby.<name>.required", bool(), "true",
            "offsets wait for this standby's durable position");
    public static final ConfigKey<Long> HEARTBEAT_INTERVAL_MS = key("heartbeat.interval.ms", wholeNumber(1, 60_000), "5",
            "heartbeat frames to each standby while idle");
    public static final ConfigKey<Integer> LIVENESS_REALTIME_PRIORITY = key("liveness.realtime.priority", integer(0, 99), "1",
            "SCHED_FIFO priority of the threads that watch the primary's postmaster and answer the coordinator's GET /primary, so a dying primary's processes cannot delay the report of its death (needs CAP_SYS_NICE or LimitRTPRIO; without, a warning and normal priority); 0 = normal priority");
    public static final ConfigKey<Long> SEQUENCE_SYNC_INTERVAL_MS = key("sequence.sync.interval.ms", wholeNumber(10, 3_600_000), "1000",
            "how often the primary's sequences (every one in the published tables' schemas) are read; the changed ones go to every standby between transactions, and a fresh reading precedes every switchover marker");
    public static final ConfigKey<Long> CAPTURE_POLL_INTERVAL_MS = key("capture.poll.interval.ms", wholeNumber(1, 60_000), "5",
            "Debezium poll.interval.ms: the capture latency floor while busy, CPU while idle");
    public static final ConfigKey<Integer> CAPTURE_MAX_BATCH_SIZE = key("capture.max.batch.size", integer(1, 1_000_000), "2048",
            "Debezium max.batch.size");
    public static final ConfigKey<Integer> CAPTURE_MAX_QUEUE_SIZE = key("capture.max.queue.size", integer(2, 10_000_000), "8192",
            "Debezium max.queue.size");
    public static final ConfigKey<Integer> SHIP_BUFFER_EVENTS = key("ship.buffer.events", powerOfTwo(64, 1 << 24), "16384",
            "Disruptor ring size in records (power of two)");
    public static final ConfigKey<Boolean> SHIP_INLINE = key("ship.inline", bool(), "true",
            "with the pgoutput engine and one standby in async mode, the capture thread writes each transaction into the standby's ring itself rather than handing it to a handler thread: one wake-up fewer per transaction; false always hands over");
    public static final ConfigKey<Long> STANDBY_CONNECT_TIMEOUT_MS = key("standby.connect.timeout.ms", wholeNumber(0, 3_600_000), "30000",
            "how long to wait for a standby's ring at start");
    public static final ConfigKey<OptionalLong> FENCE_LEASE_MS = key("fence.lease.ms", LEASE, "auto",
            "self-fence after this long without word from a standby or the coordinator: the shipper stops shipping, and its lease guard, a process that outlives it, makes the primary read-only; auto = 2000 when admin.token is set (a coordinator can renew the lease), else 0 = off");
    public static final ConfigKey<String> FENCE_LEASE_DIR = key("fence.lease.dir", text(), ShipperConfig.DEFAULT_LEASE_DIR,
            "directory of the lease file rdmarepl-lease-<source.name>, which the shipper writes its last contact into and its lease guard reads (fence.lease.ms > 0); a tmpfs, so a reboot forgets it");
    public static final ConfigKey<GuardMode> FENCE_GUARD = key("fence.guard", choice(GuardMode.values(), GuardMode::text), "process",
            "who fences the primary when the lease runs out, outliving the shipper: process = the shipper starts a lease guard process of its own session (or adopts one that runs); external = one started apart (rdmarepl lease-guard, e.g. its systemd unit) must run, or the shipper refuses to start");
    public static final ConfigKey<String> REPLICATION_MODE = key("replication.mode", oneOf("async", "sync"), "async",
            "async: commits on the primary never wait for the standbys; sync: a commit returns only once sync.standbys standbys hold it (the primary waits through synchronous_standby_names)");
    public static final ConfigKey<Integer> SYNC_STANDBYS = key("sync.standbys", integer(1, 1000), "1",
            "sync: how many of the required standbys must hold a commit before it returns (ANY k; at most the number required)");
    public static final ConfigKey<String> SYNC_LEVEL = key("sync.level", oneOf("remote_flush", "remote_apply"), "remote_flush",
            "sync: remote_flush: durable on the standby; remote_apply: also applied there (visible to its readers)");
    public static final ConfigKey<Long> SYNC_DEGRADE_AFTER_MS = key("sync.degrade.after.ms", wholeNumber(0, 3_600_000), "0",
            "sync: 0 = strict, commits wait as long as the standbys do not answer; N = after N ms waiting, degrade to async (logged, in /status and a metric) until the standbys caught up");
    public static final ConfigKey<Activation> ACTIVATION = key("activation", choice(Activation.values(), Activation::text), "immediate",
            "immediate: capture and ship from the start; on-request: serve only the admin endpoint until the coordinator activates this shipper (POST /activate), for a member that is a standby now");
    public static final ConfigKey<Integer> RING_EPOCH = key("ring.epoch", integer(1, Integer.MAX_VALUE), "1",
            "the epoch this shipper ships at when it starts by itself (activation=immediate): a standby whose ring is at a newer epoch (a failover since) refuses it, and it waits for the coordinator; an activation ships at the coordinator's epoch, which later starts keep (fence.lease.dir/rdmarepl-epoch-<source.name>, with fence.lease.ms > 0). As the applier's ring.epoch");
    public static final ConfigKey<InetSocketAddress> ADMIN_ADDRESS = key("admin.address", hostPort(), "127.0.0.1:7480",
            "admin HTTP endpoint (/health, /status, /metrics); port 0 picks a free one");
    public static final ConfigKey<String> ADMIN_TOKEN = secret("admin.token", text(), "",
            "bearer token for control actions; empty disables them");
    public static final ConfigKey<String> DEBEZIUM = ConfigKey.prefix("debezium.*",
            "passed to the Debezium engine as is (without the prefix)");

    public static final ConfigKeys ALL = ConfigKeys.of("shipper", "docs/configuration/shipper.md",
            SOURCE_NAME, DATABASE_HOST, DATABASE_PORT, DATABASE_NAME, DATABASE_USER, DATABASE_PASSWORD, DATABASE_SSLMODE,
            DATABASE_SSLROOTCERT, CAPTURE_ENGINE, CAPTURE_RECEIVE_BUFFER_BYTES, SLOT_NAME, PUBLICATION_NAME, PUBLICATION_TABLES, SNAPSHOT_MODE,
            SNAPSHOT_CHUNK_BYTES, SNAPSHOT_PARALLEL_TABLES, STANDBYS, STANDBY_URI, STANDBY_REQUIRED, HEARTBEAT_INTERVAL_MS, LIVENESS_REALTIME_PRIORITY,
            SEQUENCE_SYNC_INTERVAL_MS, CAPTURE_POLL_INTERVAL_MS, CAPTURE_MAX_BATCH_SIZE, CAPTURE_MAX_QUEUE_SIZE,
            SHIP_BUFFER_EVENTS, SHIP_INLINE, STANDBY_CONNECT_TIMEOUT_MS, FENCE_LEASE_MS, FENCE_LEASE_DIR, FENCE_GUARD, REPLICATION_MODE,
            SYNC_STANDBYS, SYNC_LEVEL, SYNC_DEGRADE_AFTER_MS, ACTIVATION, RING_EPOCH, ADMIN_ADDRESS, ADMIN_TOKEN, DEBEZIUM);

    private ShipperKeys() {
    }
}
