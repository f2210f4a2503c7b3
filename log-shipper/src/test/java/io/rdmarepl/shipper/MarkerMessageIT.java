package io.rdmarepl.shipper;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rdmarepl.format.Lsn;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.shipper.capture.MarkerMessage;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.ReplicationSlots;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Logical decoding messages through the real pipeline (primary, Debezium, shm ring, stand-in standby): a marker
 * transaction is shipped as an empty transaction at its commit LSN, after a fresh reading of the primary's
 * sequences, and anyone else's messages change nothing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MarkerMessageIT {
    private static PostgresServer primary;

    @BeforeAll
    static void startPrimary() {
        primary = PostgresServer.builder("marker_primary").durability(Durability.FAST)
                .setting("synchronous_commit", "on").start();
        primary.execute("CREATE TABLE notes (id int PRIMARY KEY, note text); CREATE SEQUENCE marker_seq");
    }

    @AfterAll
    static void stopPrimary() {
        if (primary != null) {
            primary.close();
        }
    }

    @Test
    void aMarkerOnlyTransactionIsShippedEmptyAtItsCommitLsn() throws Exception {
        try (RingCollector standby = new RingCollector(1 << 20); Shipper shipper = start("marker", standby)) {
            long xid;
            long markerLsn;
            long afterCommit;
            try (Connection c = primary.connect("postgres"); Statement s = c.createStatement()) {
                c.setAutoCommit(false);
                xid = single(s, "SELECT pg_current_xact_id()::text::bigint");
                markerLsn = Lsn.parse(text(s, "SELECT pg_logical_emit_message(true, '" + MarkerMessage.PREFIX + "', 'caught up?')::text"));
                c.commit();
                c.setAutoCommit(true);
                afterCommit = Lsn.parse(text(s, "SELECT pg_current_wal_lsn()::text"));
            }

            List<List<ChangeRecord>> transactions = ShippedTransactions.of(
                    standby.awaitRecords(r -> ShippedTransactions.commits(r) >= 1, 30_000));
            assertThat(transactions).hasSize(1);
            List<ChangeRecord> marker = transactions.get(0);
            assertThat(marker).as("Begin and Commit, nothing between").hasSize(2);
            ChangeRecord.Begin begin = (ChangeRecord.Begin) marker.get(0);
            ChangeRecord.Commit commit = (ChangeRecord.Commit) marker.get(1);
            assertThat(begin.txId()).isEqualTo(xid);
            assertThat(commit.txId()).isEqualTo(xid);
            assertThat(begin.commitLsn()).isEqualTo(commit.commitLsn());
            // the standby's applied LSN reaches the marker's: pgoutput's commit LSN is where the commit record starts,
            // which is where the message record ends (what pg_logical_emit_message returns); Debezium's lies beyond it
            assertThat(Lsn.compare(commit.commitLsn(), markerLsn)).as("commit %s not before the marker %s",
                    Lsn.format(commit.commitLsn()), Lsn.format(markerLsn)).isNotNegative();
            assertThat(Lsn.compare(commit.commitLsn(), afterCommit)).as("commit %s no later than the WAL after it %s",
                    Lsn.format(commit.commitLsn()), Lsn.format(afterCommit)).isNotPositive();
            assertThat(commit.commitTimeUs()).isPositive();
            // the standby may read the records before the handler has counted them
            Await.equalTo("transactions_shipped", Duration.ofSeconds(30), () -> shipper.status().get("transactions_shipped"), 1L);
            assertThat(shipper.status()).containsEntry("last_shipped_lsn", Lsn.format(commit.commitLsn()));
            awaitConfirmed("marker", commit.commitLsn()); // acknowledged like any transaction: the slot moves past it
        }
    }

    @Test
    void anyoneElsesMessagesAndNonTransactionalOnesAreIgnored() throws Exception {
        try (RingCollector standby = new RingCollector(1 << 20); Shipper shipper = start("others_messages", standby)) {
            long lastMessageLsn;
            try (Connection c = primary.connect("postgres"); Statement s = c.createStatement()) {
                text(s, "SELECT pg_logical_emit_message(true, 'someone.else', 'theirs')::text");
                text(s, "SELECT pg_logical_emit_message(false, '" + MarkerMessage.PREFIX + "', 'not in a transaction')::text");
                text(s, "SELECT pg_logical_emit_message(true, 'rdmarepl.marker.not', 'prefix must match exactly')::text");
                c.setAutoCommit(false);
                text(s, "SELECT pg_logical_emit_message(true, 'someone.else', 'with a row')::text");
                s.execute("INSERT INTO notes VALUES (1, 'beside a message')");
                c.commit();
                lastMessageLsn = Lsn.parse(text(s, "SELECT pg_logical_emit_message(false, 'someone.else', 'last')::text"));
                s.execute("INSERT INTO notes VALUES (2, 'after the messages')");
                c.commit();
            }

            standby.awaitRecords(r -> ShippedTransactions.commits(r) >= 2, 30_000);
            // no event says "shipped nothing more": watched for 300 ms, by when anything wrongly shipped would be here
            Await.holds("the standby holds the two transactions and nothing more", Duration.ofMillis(300),
                    () -> ShippedTransactions.of(standby.records()).size() == 2);
            List<List<ChangeRecord>> transactions = ShippedTransactions.of(standby.records());
            assertThat(transactions).hasSize(2);
            assertThat(insertedIds(transactions.get(0))).containsExactly("1");
            assertThat(insertedIds(transactions.get(1))).containsExactly("2");
            assertThat(shipper.failure()).isNull();
            assertThat(shipper.status()).containsEntry("state", "streaming");
            ChangeRecord.Commit last = (ChangeRecord.Commit) transactions.get(1).get(transactions.get(1).size() - 1);
            assertThat(Lsn.compare(last.commitLsn(), lastMessageLsn)).isPositive();
            awaitConfirmed("others_messages", last.commitLsn()); // the ignored messages' events were acknowledged too
        }
    }

    @Test
    void aFreshReadingOfTheSequencesGoesAheadOfAMarker() throws Exception {
        // readings an hour apart: only the marker's own reading can carry what happens after the first one, taken at
        // start (the publication exists by then: Debezium would create it only after that reading)
        primary.execute("CREATE PUBLICATION marker_sequences FOR TABLE notes");
        try (RingCollector standby = new RingCollector(1 << 20);
             Shipper shipper = start("marker_sequences", standby, Map.of("sequence.sync.interval.ms", "3600000"))) {
            standby.awaitRecords(r -> !ShippedTransactions.sequences(r, "public", "marker_seq").isEmpty(), 30_000);
            long markerLsn;
            try (Connection c = primary.connect("postgres"); Statement s = c.createStatement()) {
                text(s, "SELECT setval('marker_seq', 4000)");
                text(s, "SELECT nextval('marker_seq')::text"); // 4001: handed out just before the primary is fenced
                // a switchover's fencing ends every client session, the shipper's reading one included (only that one
                // here: Debezium's own, still starting, would stop the capture)
                assertThat(text(s, "SELECT count(pg_terminate_backend(pid))::text FROM pg_stat_activity"
                        + " WHERE application_name = 'rdmarepl-shipper-sequences'")).isEqualTo("1");
                markerLsn = Lsn.parse(text(s, "SELECT pg_logical_emit_message(true, '" + MarkerMessage.PREFIX + "', 'switchover')::text"));
            }

            List<ChangeRecord> records = standby.awaitRecords(r -> ShippedTransactions.commits(r) >= 1, 30_000);
            int begin = -1;
            for (int i = 0; i < records.size() && begin < 0; i++) {
                if (records.get(i) instanceof ChangeRecord.Begin) {
                    begin = i;
                }
            }
            List<ChangeRecord.Sequence> beforeMarker = ShippedTransactions.sequences(records.subList(0, begin), "public", "marker_seq");
            assertThat(beforeMarker).as("states of marker_seq before the marker's Begin").isNotEmpty();
            ChangeRecord.Sequence last = beforeMarker.get(beforeMarker.size() - 1);
            assertThat(last.lastValue()).isEqualTo(4001);
            assertThat(last.isCalled()).isTrue();
            ChangeRecord.Commit commit = (ChangeRecord.Commit) ShippedTransactions.of(records).get(0).get(1);
            assertThat(Lsn.compare(commit.commitLsn(), markerLsn)).isNotNegative();
            @SuppressWarnings("unchecked")
            Map<String, Object> sequences = (Map<String, Object>) shipper.status().get("sequences");
            assertThat((Long) sequences.get("syncs")).as("readings at start and at the marker").isGreaterThanOrEqualTo(2);
            assertThat(sequences).containsEntry("last_error", null);
        }
    }

    private static List<String> insertedIds(List<ChangeRecord> transaction) {
        return transaction.stream().filter(r -> r instanceof ChangeRecord.Insert)
                .map(r -> ShippedTransactions.text(((ChangeRecord.Insert) r).newTuple().values().get(0))).toList();
    }

    /** The {@code capture.engine} under test; {@link DebeziumMarkerMessageIT} runs the other one. */
    String engine() {
        return "pgoutput";
    }

    private Shipper start(String name, RingCollector standby) {
        return start(name, standby, Map.of());
    }

    private Shipper start(String name, RingCollector standby, Map<String, String> extra) {
        Properties p = new Properties();
        p.setProperty("database.host", PostgresServer.HOST);
        p.setProperty("database.port", Integer.toString(primary.port()));
        p.setProperty("database.user", PostgresServer.SUPERUSER);
        p.setProperty("slot.name", name);
        p.setProperty("publication.name", name);
        p.setProperty("publication.tables", "public.notes");
        p.setProperty("standbys", "a");
        p.setProperty("standby.a.uri", standby.uri());
        p.setProperty("admin.address", "127.0.0.1:0");
        p.setProperty("capture.engine", engine());
        extra.forEach(p::setProperty);
        Shipper shipper = Shipper.start(ShipperConfig.load(p), new TextChangeEncoding(), Map.of(), new SimpleMeterRegistry());
        try {
            ReplicationSlots.awaitActive(primary, name, Duration.ofSeconds(60));
        } catch (RuntimeException | AssertionError e) {
            shipper.close();
            throw e;
        }
        return shipper;
    }

    /** Waits until the slot's confirmed position reached {@code lsn}: Debezium committed the offsets up to there. */
    private static void awaitConfirmed(String slot, long lsn) {
        Await.until("slot " + slot + " confirmed " + Lsn.format(lsn), Duration.ofSeconds(30), () -> {
            try (Connection c = primary.connect("postgres"); Statement s = c.createStatement()) {
                return Lsn.parse(text(s, "SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = '" + slot + "'"));
            }
        }, confirmed -> Lsn.compare(confirmed, lsn) >= 0);
    }

    private static long single(Statement s, String sql) throws Exception {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String text(Statement s, String sql) throws Exception {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
