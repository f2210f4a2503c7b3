package io.rdmarepl.applier.config;

import static io.rdmarepl.config.ConfigKey.key;
import static io.rdmarepl.config.ConfigKey.secret;
import static io.rdmarepl.config.ValueTypes.bool;
import static io.rdmarepl.config.ValueTypes.choice;
import static io.rdmarepl.config.ValueTypes.integer;
import static io.rdmarepl.config.ValueTypes.nonEmptyText;
import static io.rdmarepl.config.ValueTypes.oneOf;
import static io.rdmarepl.config.ValueTypes.powerOfTwo;
import static io.rdmarepl.config.ValueTypes.text;
import static io.rdmarepl.config.ValueTypes.wholeNumber;

import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.channel.ring.RingDescriptor;
import io.rdmarepl.config.Activation;
import io.rdmarepl.config.ConfigKey;
import io.rdmarepl.config.ConfigKeys;
import io.rdmarepl.config.ValueType;

/**
 * Every key {@link ApplierConfig} reads: type and rules, default, description (docs/configuration/applier.md's table is
 * made from these, and checked against them by ApplierKeysTest).
 */
public final class ApplierKeys {
    private static final ValueType<ChannelUri> RING = ValueType.of("shm:///path, rdma://host:port, softrdma://host:port",
            ChannelUri::parse);

    public static final ConfigKey<String> SOURCE_NAME = key("source.name", nonEmptyText(), "primary",
            "Name of the primary this applier replays; the key of its row in rdmarepl.applied_position");
    public static final ConfigKey<Activation> ACTIVATION = key("activation",
            choice(Activation.values(), Activation::text), "immediate",
            "When the applier starts following: immediate (at start) or on-request (waits, touching neither replica nor ring, until the coordinator's POST /activate)");
    public static final ConfigKey<ChannelUri> RING_URI = key("ring.uri", RING, "shm:///dev/shm/rdmarepl-standby",
            "Channel URI of the ring this applier creates and owns (shm:///path, rdma://host:port, softrdma://host:port)");
    public static final ConfigKey<Integer> RING_CAPACITY_BYTES = key("ring.capacity.bytes",
            powerOfTwo(RingDescriptor.MIN_CAPACITY, RingDescriptor.MAX_CAPACITY), "67108864",
            "Ring data area in bytes (power of two, 4 KiB .. 1 GiB); a message may use at most half of it");
    public static final ConfigKey<Integer> RING_EPOCH = key("ring.epoch", integer(1, Integer.MAX_VALUE), "1",
            "Epoch the ring starts with; frames tagged with another epoch are refused and counted");
    public static final ConfigKey<String> REPLICA_JDBC_URL = key("replica.jdbc.url",
            nonEmptyText().where(url -> url.startsWith("jdbc:postgresql:"), "must start with jdbc:postgresql:"),
            "jdbc:postgresql://127.0.0.1:5432/postgres",
            "JDBC URL of the replica database");
    public static final ConfigKey<String> REPLICA_USER = key("replica.user", nonEmptyText(), "postgres",
            "Replica user: needs to write every replicated table, ALTER DATABASE and SET session_replication_role");
    public static final ConfigKey<String> REPLICA_PASSWORD = secret("replica.password", text(), "",
            "Replica password (masked in logs and errors); empty for trust or .pgpass");
    public static final ConfigKey<Integer> REPLICA_POOL_SIZE = key("replica.pool.size", integer(2, 64), "2",
            "Connections in the HikariCP pool: one applies, the others serve promotion and status");
    public static final ConfigKey<Long> REPLICA_CONNECT_TIMEOUT_MS = key("replica.connect.timeout.ms",
            wholeNumber(250, 600_000), "10000",
            "How long to wait for a replica connection before the attempt counts as failed (then retried)");
    public static final ConfigKey<Boolean> REPLICA_READ_ONLY_FOR_CLIENTS = key("replica.read.only.for.clients",
            bool(), "true",
            "Set default_transaction_read_only=on on the replica database until promotion (the applier's sessions turn it off)");
    public static final ConfigKey<String> REPLICA_SESSION_REPLICATION_ROLE = key("replica.session.replication.role",
            oneOf("replica", "origin"), "replica",
            "session_replication_role of the applier's sessions: replica (ordinary triggers and FK checks do not fire, as in PostgreSQL's own apply) or origin");
    public static final ConfigKey<String> APPLY_SYNCHRONOUS_COMMIT = key("apply.synchronous.commit",
            oneOf("off", "local", "remote_write", "on", "remote_apply"), "off",
            "synchronous_commit of the applier's sessions; with off, durable LSN follows the replica's WAL flush, not its commits");
    public static final ConfigKey<Integer> APPLY_WORKERS = key("apply.workers", integer(1, 64), "1",
            "Replica connections applying at once. The transactions read are cut into segments of at most apply.group.max.transactions / (2 x apply.workers); segments whose write sets do not meet apply side by side, and all commit in source order. More than 1 needs replica.session.replication.role=replica. Pays on a backlog of independent rows with cores to spare; docs/benchmarks.md has the measured scaling");
    public static final ConfigKey<Integer> APPLY_COPY_WORKERS = key("apply.copy.workers", integer(1, 64), "2",
            "Replica connections applying an initial copy's chunks at once, with apply.workers at 1 (above 1, a copy uses those): the chunks hold distinct rows of one snapshot, so they apply side by side and commit in order. The replica's B-tree indexes come out larger (pages split in halves where two chunks' keys meet); 1 applies the chunks one after another. More than 1 needs replica.session.replication.role=replica (with origin the default means 1)");
    public static final ConfigKey<Integer> APPLY_BATCH_MAX_ROWS = key("apply.batch.max.rows", integer(1, 100_000), "500",
            "Most rows sent in one JDBC batch of one statement shape (inserts that go as COPY stream, up to 65,536 rows a COPY)");
    public static final ConfigKey<Integer> APPLY_COPY_MIN_ROWS = key("apply.copy.min.rows", integer(0, 100_000), "32",
            "Fewest inserts of one statement shape in one batch that go as one COPY instead of one INSERT each (an initial copy's chunks, bulk loads), with replica.session.replication.role=replica and no trigger or rule firing for the applier; a batch of upserts that meets an existing row goes as statements. 0, or more than apply.batch.max.rows: never COPY");
    public static final ConfigKey<Boolean> APPLY_PIPELINE = key("apply.pipeline", bool(), "true",
            "Send the statements of a group's row batches in one round trip (pgjdbc's batch of the statement shapes, joined), not one round trip per statement shape; false if a pgjdbc upgrade breaks it (the applier then logs that it cannot)");
    public static final ConfigKey<Integer> APPLY_GROUP_MAX_TRANSACTIONS = key("apply.group.max.transactions",
            integer(1, 1_000_000), "1000",
            "Most source transactions grouped into one replica transaction");
    public static final ConfigKey<Long> APPLY_GROUP_MAX_BYTES = key("apply.group.max.bytes",
            wholeNumber(1024, 1L << 30), "8388608",
            "Encoded bytes after which a group is applied at the next transaction boundary (a larger transaction is still applied whole)");
    public static final ConfigKey<Long> APPLY_GROUP_MAX_MS = key("apply.group.max.ms", wholeNumber(0, 60_000), "20",
            "Longest a group stays open while more frames keep arriving (an idle ring applies at once)");
    public static final ConfigKey<Long> APPLY_GROUP_LINGER_US = key("apply.group.linger.us", wholeNumber(0, 1_000_000), "2000",
            "While the stream is busy (the last group held 4 or more transactions), how long the oldest transaction read waits for more before its group is applied: larger groups, so hot rows collapse and rows go many a statement on a loaded replica. A quiet stream applies at once, as does one whose shipper awaits this standby's acknowledgement (sync mode); 0: never waits");
    public static final ConfigKey<Integer> APPLY_POLL_MAX_FRAMES = key("apply.poll.max.frames", integer(1, 65_536), "256",
            "Most ring frames read per poll (a poll also ends at the transaction that fills a group)");
    public static final ConfigKey<Long> APPLY_IDLE_MAX_PARK_US = key("apply.idle.max.park.us",
            wholeNumber(1, 1_000_000), "1000",
            "Longest sleep of the idle apply loop. Over shm the shipper rings a doorbell and wakes it at once; over other transports this bounds the wake-up latency of an idle standby");
    public static final ConfigKey<Long> APPLY_RETRY_INITIAL_MS = key("apply.retry.initial.ms",
            wholeNumber(1, 600_000), "100",
            "First back-off before retrying a failed or paused group");
    public static final ConfigKey<Long> APPLY_RETRY_MAX_MS = key("apply.retry.max.ms", wholeNumber(1, 3_600_000), "5000",
            "Longest back-off between retries (doubling from apply.retry.initial.ms)");
    public static final ConfigKey<Long> APPLY_DURABLE_POLL_MS = key("apply.durable.poll.ms", wholeNumber(1, 60_000), "20",
            "How often to ask the replica how far its WAL is flushed while commits await durability");
    public static final ConfigKey<Long> APPLY_FEEDBACK_INTERVAL_MS = key("apply.feedback.interval.ms",
            wholeNumber(1, 60_000), "50",
            "Feedback heartbeat to the shipper while nothing else moves");
    public static final ConfigKey<String> APPLY_ON_DIVERGENCE = key("apply.on.divergence", oneOf("pause", "log"), "pause",
            "A change showing the replica already differs (an UPDATE or DELETE that finds no row, a streamed INSERT whose key exists): pause (apply stops at it, naming table and key) or log (counted in rdmarepl_applier_rows_missing_total, logged, the INSERT overwrites)");
    public static final ConfigKey<Long> PROMOTE_SEQUENCE_HEADROOM = key("promote.sequence.headroom",
            wholeNumber(0, Long.MAX_VALUE / 4), "1000",
            "Added to the last value shipped or the highest value seen when promotion sets a sequence (covers values the primary used in rolled-back transactions)");
    public static final ConfigKey<Long> PROMOTE_SEQUENCE_SYNC_INTERVAL_MS = key("promote.sequence.sync.interval.ms",
            wholeNumber(10, 3_600_000), "1000",
            "The shipper's sequence.sync.interval.ms (or more): promotion moves a sequence past its last shipped value by its rate times the larger of this and the time since the last reading");
    public static final ConfigKey<String> ADMIN_BIND = key("admin.bind", nonEmptyText(), "127.0.0.1",
            "Address of the admin HTTP endpoint (/health, /status, /metrics)");
    public static final ConfigKey<Integer> ADMIN_PORT = key("admin.port", integer(0, 65_535), "9472",
            "Port of the admin HTTP endpoint; 0 picks a free port");
    public static final ConfigKey<String> ADMIN_TOKEN = secret("admin.token", text(), "",
            "Bearer token for control actions (POST /activate, /drain, /promote); empty disables them");

    public static final ConfigKeys ALL = ConfigKeys.of("applier", "docs/configuration/applier.md",
            SOURCE_NAME, ACTIVATION, RING_URI, RING_CAPACITY_BYTES, RING_EPOCH,
            REPLICA_JDBC_URL, REPLICA_USER, REPLICA_PASSWORD, REPLICA_POOL_SIZE, REPLICA_CONNECT_TIMEOUT_MS,
            REPLICA_READ_ONLY_FOR_CLIENTS, REPLICA_SESSION_REPLICATION_ROLE, APPLY_SYNCHRONOUS_COMMIT,
            APPLY_WORKERS, APPLY_COPY_WORKERS, APPLY_BATCH_MAX_ROWS, APPLY_COPY_MIN_ROWS, APPLY_PIPELINE, APPLY_GROUP_MAX_TRANSACTIONS, APPLY_GROUP_MAX_BYTES, APPLY_GROUP_MAX_MS, APPLY_GROUP_LINGER_US,
            APPLY_POLL_MAX_FRAMES, APPLY_IDLE_MAX_PARK_US, APPLY_RETRY_INITIAL_MS, APPLY_RETRY_MAX_MS,
            APPLY_DURABLE_POLL_MS, APPLY_FEEDBACK_INTERVAL_MS, APPLY_ON_DIVERGENCE, PROMOTE_SEQUENCE_HEADROOM,
            PROMOTE_SEQUENCE_SYNC_INTERVAL_MS, ADMIN_BIND, ADMIN_PORT, ADMIN_TOKEN);

    private ApplierKeys() {
    }
}
