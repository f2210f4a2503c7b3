package io.rdmarepl.shipper;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rdmarepl.format.Lsn;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.PostgresServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shipper against a real primary and a real shm ring, with a stand-in standby: the capture contract. It runs on
 * Debezium here and on the native engine in {@link PgOutputShipperPipelineIT}; both must pass it unchanged. Here the
 * Disruptor's handler thread writes the ring ({@code ship.inline=false}); there the capture thread does (the default
 * with one async standby), so both of the pipeline's paths run the whole contract.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShipperPipelineIT {
    private static PostgresServer primary;

    @BeforeAll
    static void startPrimary() {
        primary = PostgresServer.builder("shipper_primary").durability(Durability.FAST)
                .setting("synchronous_commit", "on").start();
        primary.execute("CREATE TABLE accounts (id int PRIMARY KEY, note text)");
        primary.execute("CREATE TABLE burst (id int PRIMARY KEY, payload text)");
        primary.execute("CREATE TABLE parent (id int PRIMARY KEY); CREATE TABLE child (id int PRIMARY KEY, p int REFERENCES parent);"
                + " CREATE TABLE other (id int)");
    }

    @AfterAll
    static void stopPrimary() {
        if (primary != null) {
            primary.close();
        }
    }

    @Test
    void transactionsArriveWholeInCommitOrderAndRolledBackOnesNever() throws Exception {
        try (RingCollector standby = new RingCollector(1 << 20); Shipper shipper = start("ordering", standby, Map.of())) {
            try (Connection a = primary.connect("postgres"); Connection b = primary.connect("postgres");
                 Connection c = primary.connect("postgres")) {
                a.setAutoCommit(false);
                b.setAutoCommit(false);
                c.setAutoCommit(false);
                exec(a, "INSERT INTO accounts VALUES (1, 'a1')");
                exec(a, "INSERT INTO accounts VALUES (2, 'a2')");
                exec(b, "INSERT INTO accounts VALUES (3, 'b')");
                b.commit();
                a.commit();
                exec(c, "INSERT INTO accounts VALUES (4, 'rolled back')");
                c.rollback();
                exec(c, "UPDATE accounts SET note = 'changed' WHERE id = 3");
                exec(c, "DELETE FROM accounts WHERE id = 2");
                c.commit();
            }
            List<List<ChangeRecord>> transactions = transactions(standby.awaitRecords(r -> commits(r) >= 3, 30_000));
            assertThat(transactions).hasSize(3);
            assertThat(texts(transactions.get(0))).containsExactly("3:b");
            assertThat(texts(transactions.get(1))).containsExactly("1:a1", "2:a2");
            assertThat(texts(transactions.get(2))).containsExactly("3:changed", "delete 2");
            long previous = 0;
            for (List<ChangeRecord> tx : transactions) {
                ChangeRecord.Begin begin = (ChangeRecord.Begin) tx.get(0);
                ChangeRecord.Commit commit = (ChangeRecord.Commit) tx.get(tx.size() - 1);
                assertThat(begin.commitLsn()).isEqualTo(commit.commitLsn());
                assertThat(Long.compareUnsigned(commit.commitLsn(), previous)).isPositive();
                assertThat(commit.commitTimeUs()).isPositive();
                previous = commit.commitLsn();
            }
            assertThat(standby.records()).noneMatch(r -> r.toString().contains("rolled back"));
            assertThat(shipper.status()).containsEntry("state", "streaming");
            assertThat((Long) shipper.status().get("slot_retained_wal_bytes")).isNotNegative();
        }
    }

    /**
     * pgoutput names every table of a TRUNCATE (cascaded ones too) in one message; Debezium splits it per table, and
     * {@code TRUNCATE parent} alone fails on the standby while child references it. One Truncate record per run of
     * consecutive truncates in a transaction, a later one after another change its own.
     */
    @Test
    void consecutiveTruncatesOfATransactionArriveAsOneTruncate() throws Exception {
        primary.execute("INSERT INTO parent VALUES (1); INSERT INTO child VALUES (1, 1); INSERT INTO other VALUES (1)");
        try (RingCollector standby = new RingCollector(1 << 20); Shipper shipper = start("truncates", standby,
                Map.of("publication.tables", "public.parent,public.child,public.other", "debezium.skipped.operations", "none"))) {
            primary.execute("TRUNCATE parent CASCADE");
            primary.execute("BEGIN; TRUNCATE other; TRUNCATE parent, child; INSERT INTO other VALUES (2); TRUNCATE other; COMMIT");
            List<List<ChangeRecord>> transactions = transactions(standby.awaitRecords(r -> commits(r) >= 2, 30_000));
            int parent = oid("parent");
            int child = oid("child");
            int other = oid("other");
            assertThat(truncates(transactions.get(0))).containsExactly(Set.of(parent, child));
            if ("pgoutput".equals(engine())) {
                // pgoutput sends each TRUNCATE statement as it ran: the standby runs the same statements
                assertThat(truncates(transactions.get(1))).containsExactly(Set.of(other), Set.of(parent, child), Set.of(other));
            } else {
                // Debezium splits a TRUNCATE into one event per table: consecutive ones go back together
                assertThat(truncates(transactions.get(1))).containsExactly(Set.of(other, parent, child), Set.of(other));
            }
        }
    }

    private static List<Set<Integer>> truncates(List<ChangeRecord> transaction) {
        List<Set<Integer>> truncates = new ArrayList<>();
        for (ChangeRecord r : transaction) {
            if (r instanceof ChangeRecord.Truncate t) {
                truncates.add(Set.copyOf(t.relationIds()));
            }
        }
        return truncates;
    }

    /** The relation id of {@code public.<table>}: the id TextChangeEncoding gives it, or (native engine) its OID. */
    private int oid(String table) throws Exception {
        if ("pgoutput".equals(engine())) {
            try (Connection c = primary.connect("postgres"); java.sql.Statement s = c.createStatement();
                 java.sql.ResultSet rs = s.executeQuery("SELECT 'public." + table + "'::regclass::oid")) {
                rs.next();
                return (int) rs.getLong(1);
            }
        }
        return ("rdmarepl.public." + table).hashCode() & Integer.MAX_VALUE;
    }

    @Test
    void primaryForgetsOnlyWhatTheStandbyHoldsDurably() throws Exception {
        try (RingCollector standby = new RingCollector(1 << 20); Shipper shipper = start("acks", standby, Map.of())) {
            standby.holdDurableAt(0);
            primary.execute("INSERT INTO accounts VALUES (10, 'held')");
            List<ChangeRecord> received = standby.awaitRecords(r -> commits(r) >= 1, 30_000);
            long commitLsn = received.stream().filter(r -> r instanceof ChangeRecord.Commit)
                    .map(r -> ((ChangeRecord.Commit) r).commitLsn()).findFirst().orElseThrow();
            // no event says "confirmed nothing": watched over several Debezium heartbeats and commits
            Await.holds("the slot confirming nothing past " + Lsn.format(commitLsn) + " while the standby holds nothing durable",
                    Duration.ofMillis(1500), () -> Long.compareUnsigned(confirmedFlushLsn("acks"), commitLsn) < 0);

            standby.holdDurableAt(-1L);
            primary.execute("INSERT INTO accounts VALUES (11, 'released')");
            Await.until("the slot advanced past " + Lsn.format(commitLsn) + " once durable", Duration.ofSeconds(30),
                    () -> confirmedFlushLsn("acks"), confirmed -> Long.compareUnsigned(confirmed, commitLsn) >= 0);
        }
    }

    @Test
    void aGracefulStopConfirmsToTheSlotWhatTheStandbyAcknowledged() throws Exception {
        try (RingCollector standby = new RingCollector(1 << 20)) {
            Shipper shipper = start("drain", standby, Map.of());
            for (int i = 0; i < 5; i++) {
                primary.execute("INSERT INTO accounts VALUES (" + (30 + i) + ", 'drained')");
            }
            List<ChangeRecord> received = standby.awaitRecords(r -> commits(r) >= 5, 30_000);
            long lastCommitLsn = ((ChangeRecord.Commit) received.stream().filter(r -> r instanceof ChangeRecord.Commit)
                    .reduce((a, b) -> b).orElseThrow()).commitLsn();
            long stopNs = System.nanoTime();
            shipper.close(java.time.Duration.ofSeconds(30));
            long stopMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopNs);
            assertThat(stopMs).as("the stop returns once the standby's acknowledgement is confirmed, not after its"
                    + " whole 30 s drain timeout").isLessThan(15_000);
            assertThat(Long.compareUnsigned(confirmedFlushLsn("drain"), lastCommitLsn))
                    .as("slot confirmed %s after the stop, last acknowledged commit at %s",
                            Lsn.format(confirmedFlushLsn("drain")), Lsn.format(lastCommitLsn))
                    .isNotNegative();
        }
    }

    @Test
    void aFullRingHoldsCaptureBackAndLosesNothing() throws Exception {
        try (RingCollector standby = new RingCollector(8192); Shipper shipper = start("burst", standby, Map.of("ship.buffer.events", "64"))) {
            standby.slowDown(2_000_000);
            try (Connection connection = primary.connect("postgres")) {
                connection.setAutoCommit(false);
                for (int tx = 0; tx < 20; tx++) {
                    for (int i = 0; i < 50; i++) {
                        int id = tx * 50 + i;
                        exec(connection, "INSERT INTO burst VALUES (" + id + ", repeat('x', " + (id % 300) + "))");
                    }
                    connection.commit();
                }
            }
            standby.slowDown(0);
            List<ChangeRecord> received = standby.awaitRecords(r -> commits(r) >= 20, 60_000);
            List<Integer> ids = new ArrayList<>();
            for (ChangeRecord r : received) {
                if (r instanceof ChangeRecord.Insert insert) {
                    ids.add(Integer.parseInt(ShippedTransactions.text(insert.newTuple().values().get(0))));
                }
            }
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                expected.add(i);
            }
            assertThat(ids).isEqualTo(expected);
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> standbys = (List<Map<String, Object>>) shipper.status().get("standbys");
            assertThat((Double) standbys.get(0).get("back_pressure_seconds")).as("the ring was full at times").isPositive();
        }
    }

    @Test
    void aRestartedStandbyStopsTheShipperInsteadOfFeedingAnOrphanRing() throws Exception {
        RingCollector first = new RingCollector(1 << 20);
        try (Shipper shipper = start("restarted", first, Map.of())) {
            primary.execute("INSERT INTO accounts VALUES (20, 'before restart')");
            first.awaitRecords(r -> commits(r) >= 1, 30_000);
            first.close();
            try (RingCollector second = new RingCollector(first.path(), 1 << 20)) {
                Await.until("the shipper failed", Duration.ofSeconds(10), () -> shipper.failure() != null);
                assertThat(shipper.failure()).contains("was replaced or removed by its reader");
                assertThat(shipper.healthy()).isFalse();
                assertThat(second.records()).isEmpty();
            }
        }
    }

    @Test
    void sequenceStatesReachTheStandbyBetweenTransactionsWhenTheyChangeAndOnlyThen() throws Exception {
        primary.execute("CREATE SCHEMA seq; CREATE TABLE seq.things (id serial PRIMARY KEY, note text);"
                + " CREATE SEQUENCE seq.counter");
        try (RingCollector standby = new RingCollector(1 << 20); Shipper shipper = start("sequences", standby,
                Map.of("publication.tables", "seq.things", "sequence.sync.interval.ms", "100"))) {
            // every sequence of the published tables' schemas, owned or not, once as the primary has it
            List<ChangeRecord> first = standby.awaitRecords(r -> !ShippedTransactions.sequences(r, "seq", "counter").isEmpty()
                    && !ShippedTransactions.sequences(r, "seq", "things_id_seq").isEmpty(), 30_000);
            ChangeRecord.Sequence fresh = ShippedTransactions.sequences(first, "seq", "counter").get(0);
            assertThat(fresh.lastValue()).isEqualTo(1);
            assertThat(fresh.isCalled()).as("a fresh sequence has not handed out its first value").isFalse();

            // nextval() alone: nothing logical decoding would ever see
            long beforeUs = System.currentTimeMillis() * 1000;
            primary.execute("SELECT nextval('seq.counter') FROM generate_series(1, 3)");
            List<ChangeRecord> called = standby.awaitRecords(r -> ShippedTransactions.sequences(r, "seq", "counter").stream()
                    .anyMatch(q -> q.lastValue() == 3 && q.isCalled()), 30_000);
            List<ChangeRecord.Sequence> counter = ShippedTransactions.sequences(called, "seq", "counter");
            assertThat(counter.get(counter.size() - 1).readTimeUs()).as("read after the nextval() calls")
                    .isGreaterThanOrEqualTo(beforeUs - 1_000_000);

            // unchanged states are not shipped again, however many readings pass
            int counterStates = ShippedTransactions.sequences(standby.records(), "seq", "counter").size();
            long syncs = syncs(shipper);
            Await.until("five more readings of the sequences", Duration.ofSeconds(30), () -> syncs(shipper), n -> n >= syncs + 5);
            assertThat(ShippedTransactions.sequences(standby.records(), "seq", "counter")).hasSize(counterStates);
            assertThat(ShippedTransactions.sequences(standby.records(), "seq", "things_id_seq")).hasSize(1);

            // a row takes a value from the owned sequence: its new state follows, outside the transaction
            primary.execute("INSERT INTO seq.things (note) VALUES ('a')");
            List<ChangeRecord> all = standby.awaitRecords(r -> commits(r) >= 1
                    && ShippedTransactions.sequences(r, "seq", "things_id_seq").size() >= 2, 30_000);
            assertThat(ShippedTransactions.sequences(all, "seq", "things_id_seq").get(1))
                    .extracting(ChangeRecord.Sequence::lastValue, ChangeRecord.Sequence::isCalled).containsExactly(1L, true);
            assertThat(ShippedTransactions.of(all)).hasSize(1); // and checks every Sequence record fell between transactions

            @SuppressWarnings("unchecked")
            Map<String, Object> status = (Map<String, Object>) shipper.status().get("sequences");
            assertThat(status).containsEntry("tracked", 2).containsEntry("last_error", null);
            assertThat((Long) status.get("shipped")).as("every state shipped once, to the one standby")
                    .isEqualTo(ShippedTransactions.sequences(all, "seq", "counter").size()
                            + ShippedTransactions.sequences(all, "seq", "things_id_seq").size());
            assertThat(status.get("last_sync")).isNotNull();
        }
    }

    @Test
    void aReadingOfTheSequencesThatFailsNeverHoldsCaptureBackAndIsRetried() throws Exception {
        primary.execute("CREATE SCHEMA seq_held; CREATE TABLE seq_held.items (id int PRIMARY KEY); CREATE SEQUENCE seq_held.held");
        try (RingCollector standby = new RingCollector(1 << 20); Shipper shipper = start("sequences_held", standby,
                Map.of("publication.tables", "seq_held.items", "sequence.sync.interval.ms", "100"))) {
            standby.awaitRecords(r -> !ShippedTransactions.sequences(r, "seq_held", "held").isEmpty(), 30_000);
            try (Connection holder = primary.connect("postgres")) {
                holder.setAutoCommit(false);
                exec(holder, "DROP SEQUENCE seq_held.held"); // not committed: reading the sequence waits for the lock
                primary.execute("INSERT INTO seq_held.items VALUES (1)");
                standby.awaitRecords(r -> commits(r) >= 1, 30_000); // capture goes on meanwhile
                Await.until("a reading given up", Duration.ofSeconds(30), () -> sequenceStatus(shipper).get("last_error"),
                        error -> error != null);
                assertThat((String) sequenceStatus(shipper).get("last_error")).contains("statement timeout");
                assertThat(shipper.healthy()).isTrue();
                holder.rollback();
            }
            primary.execute("SELECT nextval('seq_held.held')");
            standby.awaitRecords(r -> ShippedTransactions.sequences(r, "seq_held", "held").stream().anyMatch(q -> q.isCalled()),
                    30_000);
            assertThat(sequenceStatus(shipper)).containsEntry("last_error", null);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> sequenceStatus(Shipper shipper) {
        return (Map<String, Object>) shipper.status().get("sequences");
    }

    @SuppressWarnings("unchecked")
    private static long syncs(Shipper shipper) {
        return (Long) ((Map<String, Object>) shipper.status().get("sequences")).get("syncs");
    }

    /** The {@code capture.engine} the contract runs on. */
    String engine() {
        return "debezium";
    }

    /** {@code ship.inline}: whether the capture thread writes the standby's ring itself. */
    boolean shipInline() {
        return false;
    }

    private Shipper start(String name, RingCollector standby, Map<String, String> extra) throws Exception {
        Properties p = new Properties();
        p.setProperty("database.host", PostgresServer.HOST);
        p.setProperty("database.port", Integer.toString(primary.port()));
        p.setProperty("database.user", PostgresServer.SUPERUSER);
        p.setProperty("slot.name", name);
        p.setProperty("publication.name", name);
        p.setProperty("publication.tables", "public.accounts,public.burst");
        p.setProperty("standbys", "a");
        p.setProperty("standby.a.uri", standby.uri());
        p.setProperty("admin.address", "127.0.0.1:0");
        p.setProperty("capture.poll.interval.ms", "5");
        p.setProperty("capture.engine", engine());
        p.setProperty("ship.inline", Boolean.toString(shipInline()));
        extra.forEach(p::setProperty);
        Shipper shipper = Shipper.start(ShipperConfig.load(p), new TextChangeEncoding(), Map.of(), new SimpleMeterRegistry());
        try {
            Await.until("slot " + name + " streaming, or the shipper failed", Duration.ofSeconds(60),
                    () -> shipper.failure() != null || slotActive(name));
            assertThat(shipper.failure()).as("the shipper failed before slot %s streamed", name).isNull();
            assertThat(shipper.status().get("ship_path")).as("ship_path").isEqualTo(shipInline() ? "inline" : "handlers");
        } catch (AssertionError e) {
            shipper.close();
            throw e;
        }
        return shipper;
    }

    private static boolean slotActive(String slot) throws Exception {
        try (Connection c = primary.connect("postgres"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT active FROM pg_replication_slots WHERE slot_name = '" + slot + "'")) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    private static long confirmedFlushLsn(String slot) throws Exception {
        try (Connection c = primary.connect("postgres"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = '" + slot + "'")) {
            rs.next();
            return Lsn.parse(rs.getString(1));
        }
    }

    private static void exec(Connection connection, String sql) throws Exception {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static long commits(List<ChangeRecord> records) {
        return records.stream().filter(r -> r instanceof ChangeRecord.Commit).count();
    }

    /** Splits the stream into transactions, checking heartbeats and sequence states only ever fall between them. */
    private static List<List<ChangeRecord>> transactions(List<ChangeRecord> records) {
        List<List<ChangeRecord>> transactions = new ArrayList<>();
        List<ChangeRecord> current = null;
        for (ChangeRecord r : records) {
            if (r instanceof ChangeRecord.Begin) {
                assertThat(current).as("Begin inside a transaction").isNull();
                current = new ArrayList<>();
            }
            if (r instanceof ChangeRecord.Heartbeat || r instanceof ChangeRecord.Sequence) {
                assertThat(current).as("%s inside a transaction", r).isNull();
                continue;
            }
            if (r instanceof ChangeRecord.Relation) {
                continue;
            }
            assertThat(current).as("%s outside a transaction", r).isNotNull();
            current.add(r);
            if (r instanceof ChangeRecord.Commit) {
                transactions.add(current);
                current = null;
            }
        }
        return transactions;
    }

    private static List<String> texts(List<ChangeRecord> transaction) {
        List<String> texts = new ArrayList<>();
        for (ChangeRecord r : transaction) {
            if (r instanceof ChangeRecord.Insert i) {
                texts.add(ShippedTransactions.text(i.newTuple().values().get(0)) + ":" + ShippedTransactions.text(i.newTuple().values().get(1)));
            } else if (r instanceof ChangeRecord.Update u) {
                texts.add(ShippedTransactions.text(u.newTuple().values().get(0)) + ":" + ShippedTransactions.text(u.newTuple().values().get(1)));
            } else if (r instanceof ChangeRecord.Delete d) {
                texts.add("delete " + ShippedTransactions.text(d.oldTuple().values().get(0)));
            }
        }
        return texts;
    }
}
