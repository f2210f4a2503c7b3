package io.rdmarepl.applier.config;

import static io.rdmarepl.applier.config.ConfigKey.key;
import static io.rdmarepl.applier.config.ConfigKey.secret;

import java.util.List;

/** Every key {@link ApplierConfig} reads, next to its default and description (docs/configuration.md's table is made from these). */
public final class ApplierKeys {
    public static final ConfigKey SOURCE_NAME = key("source.name", "primary",
            "Name of the primary this applier replays; the key of its row in rdmarepl.applied_position");
    public static final ConfigKey ACTIVATION = key("activation", "immediate",
            "When the applier starts following: immediate (at start) or on-request (waits, touching neither replica nor ring, until the coordinator's POST /activate)");
    public static final ConfigKey RING_URI = key("ring.uri", "shm:///dev/shm/rdmarepl-standby",
            "Channel URI of the ring this applier creates and owns (shm:///path, rdma://host:port, softrdma://host:port)");
    public static final ConfigKey RING_CAPACITY_BYTES = key("ring.capacity.bytes", "67108864",
            "Ring data area in bytes (power of two, 4 KiB .. 1 GiB); a message may use at most half of it");
    public static final ConfigKey RING_EPOCH = key("ring.epoch", "1",
            "Epoch the ring starts with; frames tagged with another epoch are refused and counted");
    public static final ConfigKey REPLICA_JDBC_URL = key("replica.jdbc.url", "jdbc:postgresql://127.0.0.1:5432/postgres",
            "JDBC URL of the replica database");
    public static final ConfigKey REPLICA_USER = key("replica.user", "postgres",
            "Replica user: needs to write every replicated table, ALTER DATABASE and SET session_replication_role");
    public static final ConfigKey REPLICA_PASSWORD = secret("replica.password", "",
            "Replica password (masked in logs and errors); empty for trust or .pgpass");
    public static final ConfigKey REPLICA_POOL_SIZE = key("replica.pool.size", "2",
            "Connections in the HikariCP pool: one applies, the others serve promotion and status");
    public static final ConfigKey REPLICA_CONNECT_TIMEOUT_MS = key("replica.connect.timeout.ms", "10000",
            "How long to wait for a replica connection before the attempt counts as failed (then retried)");
    public static final ConfigKey REPLICA_READ_ONLY_FOR_CLIENTS = key("replica.read.only.for.clients", "true",
            "Set default_transaction_read_only=on on the replica database until promotion (the applier's sessions turn it off)");
    public static final ConfigKey REPLICA_SESSION_REPLICATION_ROLE = key("replica.session.replication.role", "replica",
            "session_replication_role of the applier's sessions: replica (ordinary triggers and FK checks do not fire, as in PostgreSQL's own apply) or origin");
    public static final ConfigKey APPLY_SYNCHRONOUS_COMMIT = key("apply.synchronous.commit", "off",
            "synchronous_commit of the applier's sessions; with off, durable LSN follows the replica's WAL flush, not its commits");
    public static final ConfigKey APPLY_WORKERS = key("apply.workers", "1",
            "Replica connections applying at once (1..64). The transactions read are cut into segments of at most apply.group.max.transactions / (2 x apply.workers); segments whose write sets do not meet apply side by side, and all commit in source order. Needs replica.session.replication.role=replica. Pays on a backlog of independent rows with cores to spare; docs/benchmarks.md has the measured scaling");
    public static final ConfigKey APPLY_BATCH_MAX_ROWS = key("apply.batch.max.rows", "500",
            "Most rows sent in one JDBC batch of one statement shape");
    public static final ConfigKey APPLY_GROUP_MAX_TRANSACTIONS = key("apply.group.max.transactions", "1000",
            "Most source transactions grouped into one replica transaction");
    public static final ConfigKey APPLY_GROUP_MAX_BYTES = key("apply.group.max.bytes", "8388608",
            "Encoded bytes after which a group is applied at the next transaction boundary (a larger transaction is still applied whole)");
    public static final ConfigKey APPLY_GROUP_MAX_MS = key("apply.group.max.ms", "20",
            "Longest a group stays open while more frames keep arriving (an idle ring applies at once)");
    public static final ConfigKey APPLY_POLL_MAX_FRAMES = key("apply.poll.max.frames", "256",
            "Most ring frames read per poll");
    public static final ConfigKey APPLY_IDLE_MAX_PARK_US = key("apply.idle.max.park.us", "1000",
            "Longest sleep of the idle apply loop. Over shm the shipper rings a doorbell and wakes it at once; over other transports this bounds the wake-up latency of an idle standby");
    public static final ConfigKey APPLY_RETRY_INITIAL_MS = key("apply.retry.initial.ms", "100",
            "First back-off before retrying a failed or paused group");
    public static final ConfigKey APPLY_RETRY_MAX_MS = key("apply.retry.max.ms", "5000",
            "Longest back-off between retries (doubling from apply.retry.initial.ms)");
    public static final ConfigKey APPLY_DURABLE_POLL_MS = key("apply.durable.poll.ms", "20",
            "How often to ask the replica how far its WAL is flushed while commits await durability");
    public static final ConfigKey APPLY_FEEDBACK_INTERVAL_MS = key("apply.feedback.interval.ms", "50",
            "Feedback heartbeat to the shipper while nothing else moves");
    public static final ConfigKey APPLY_ON_DIVERGENCE = key("apply.on.divergence", "pause",
            "A change showing the replica already differs (an UPDATE or DELETE that finds no row, a streamed INSERT whose key exists): pause (apply stops at it, naming table and key) or log (counted in rdmarepl_applier_rows_missing_total, logged, the INSERT overwrites)");
    public static final ConfigKey PROMOTE_SEQUENCE_HEADROOM = key("promote.sequence.headroom", "1000",
            "Added to the last value shipped or the highest value seen when promotion sets a sequence (covers values the primary used in rolled-back transactions)");
    public static final ConfigKey PROMOTE_SEQUENCE_SYNC_INTERVAL_MS = key("promote.sequence.sync.interval.ms", "1000",
            "The shipper's sequence.sync.interval.ms (or more): promotion moves a sequence past its last shipped value by its rate times the larger of this and the time since the last reading");
    public static final ConfigKey ADMIN_BIND = key("admin.bind", "127.0.0.1",
            "Address of the admin HTTP endpoint (/health, /status, /metrics)");
    public static final ConfigKey ADMIN_PORT = key("admin.port", "9472",
            "Port of the admin HTTP endpoint; 0 picks a free port");
    public static final ConfigKey ADMIN_TOKEN = secret("admin.token", "",
            "Bearer token for control actions (POST /activate, /drain, /promote); empty disables them");

    public static final List<ConfigKey> ALL = List.of(SOURCE_NAME, ACTIVATION, RING_URI, RING_CAPACITY_BYTES, RING_EPOCH,
            REPLICA_JDBC_URL, REPLICA_USER, REPLICA_PASSWORD, REPLICA_POOL_SIZE, REPLICA_CONNECT_TIMEOUT_MS,
            REPLICA_READ_ONLY_FOR_CLIENTS, REPLICA_SESSION_REPLICATION_ROLE, APPLY_SYNCHRONOUS_COMMIT,
            APPLY_WORKERS, APPLY_BATCH_MAX_ROWS, APPLY_GROUP_MAX_TRANSACTIONS, APPLY_GROUP_MAX_BYTES, APPLY_GROUP_MAX_MS,
            APPLY_POLL_MAX_FRAMES, APPLY_IDLE_MAX_PARK_US, APPLY_RETRY_INITIAL_MS, APPLY_RETRY_MAX_MS,
            APPLY_DURABLE_POLL_MS, APPLY_FEEDBACK_INTERVAL_MS, APPLY_ON_DIVERGENCE, PROMOTE_SEQUENCE_HEADROOM,
            PROMOTE_SEQUENCE_SYNC_INTERVAL_MS, ADMIN_BIND, ADMIN_PORT,
            ADMIN_TOKEN);

    private ApplierKeys() {
    }
}
