package io.rdmarepl.shipper;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rdmarepl.format.Lsn;
import io.rdmarepl.format.codec.TransactionDescriptor;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.Value;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The native engine's initial copy with several sessions ({@code snapshot.parallel.tables}), against a real primary and
 * a stand-in standby: every row exactly once, in whole flagged chunks, the Relations and the Truncate first and one
 * empty unflagged transaction last, values as the primary holds them; its progress per table while it runs; and a
 * session that fails stops the copy, naming the table, with no session left behind on the primary.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class NativeInitialCopyIT {
    private static final int BIG_ROWS = 40_000;
    private static final int MID_ROWS = 25_000;
    private static final String TABLES = "public.copy_big,public.copy_mid,public.copy_small,public.copy_empty";
    private static PostgresServer primary;

    @BeforeAll
    static void startPrimary() {
        primary = PostgresServer.builder("native_copy").durability(Durability.FAST).start();
        primary.execute("CREATE TABLE copy_big (id bigint PRIMARY KEY, note text)");
        primary.execute("CREATE TABLE copy_mid (id int PRIMARY KEY, payload text)");
        primary.execute("CREATE TABLE copy_small (id int PRIMARY KEY, v text)");
        primary.execute("CREATE TABLE copy_empty (id int PRIMARY KEY)");
        primary.execute("INSERT INTO copy_big SELECT g, 'row ' || g || repeat('x', 60) FROM generate_series(1, " + BIG_ROWS + ") g");
        // COPY's text escapes: tab, newline, carriage return, backslash; and NULLs
        primary.execute("INSERT INTO copy_mid SELECT g, CASE WHEN g % 7 = 0 THEN NULL ELSE E'tab\\there\\nline\\r\\\\ ' || g END"
                + " FROM generate_series(1, " + MID_ROWS + ") g");
        primary.execute("INSERT INTO copy_small VALUES (1, 'one'), (2, '\\N'), (3, '')");
        primary.execute("ANALYZE copy_big, copy_mid, copy_small, copy_empty");
    }

    @AfterAll
    static void stopPrimary() {
        if (primary != null) {
            primary.close();
        }
    }

    @ParameterizedTest(name = "{0} session(s)")
    @ValueSource(ints = {1, 3})
    void shipsEveryRowOnceInWholeFlaggedChunksThenStreams(int sessions) throws Exception {
        String slot = "copy_sessions_" + sessions;
        try (RingCollector standby = new RingCollector(1 << 20);
             Shipper shipper = start(slot, standby, Map.of("snapshot.parallel.tables", Integer.toString(sessions)))) {
            awaitCopied(shipper);
            List<ChangeRecord> records = standby.records();
            List<List<ChangeRecord>> transactions = ShippedTransactions.of(records);
            List<Integer> flags = standby.beginFlags();
            assertThat(flags).hasSameSizeAs(transactions);
            long copyLsn = Lsn.parse((String) shipper.status().get("copy_lsn"));

            List<ChangeRecord> first = transactions.get(0);
            assertThat(first.subList(1, 5)).as("opens with every table's Relation, in name order")
                    .extracting(r -> ((ChangeRecord.Relation) r).table())
                    .containsExactly("copy_big", "copy_empty", "copy_mid", "copy_small");
            assertThat(first.get(5)).isInstanceOfSatisfying(ChangeRecord.Truncate.class,
                    t -> assertThat(t.relationIds()).hasSize(4));
            int last = transactions.size() - 1;
            assertThat(transactions.get(last)).as("the closing transaction is empty").hasSize(2);
            assertThat(flags.get(last)).as("the closing transaction is unflagged").isZero();
            assertThat(flags.subList(0, last)).as("every chunk is flagged").containsOnly(TransactionDescriptor.BEGIN_SNAPSHOT_CHUNK_FLAG);
            assertThat(last).as("64 KB chunks of about 7 MB").isGreaterThan(50);
            for (List<ChangeRecord> tx : transactions) {
                assertThat(((ChangeRecord.Begin) tx.get(0)).commitLsn()).isEqualTo(copyLsn);
                assertThat(((ChangeRecord.Commit) tx.get(tx.size() - 1)).commitLsn()).isEqualTo(copyLsn);
            }

            Map<Integer, String> names = new HashMap<>();
            first.stream().filter(r -> r instanceof ChangeRecord.Relation)
                    .forEach(r -> names.put(((ChangeRecord.Relation) r).relationId(), ((ChangeRecord.Relation) r).table()));
            Map<String, Map<String, String>> copied = new HashMap<>();
            for (List<ChangeRecord> tx : transactions) {
                for (ChangeRecord r : tx) {
                    if (r instanceof ChangeRecord.CopyChunk chunk) {
                        String table = names.get(chunk.relationId());
                        assertThat(chunk.columns()).as("%s: every column in the Relation's order", table)
                                .isEqualTo(IntStream.range(0, chunk.columns().size()).boxed().toList());
                        for (List<String> row : ShippedTransactions.rows(chunk)) {
                            String previous = copied.computeIfAbsent(table, t -> new HashMap<>())
                                    .put(row.get(0), row.size() > 1 ? row.get(1) : null);
                            assertThat(previous).as("row %s of %s copied twice", row.get(0), table).isNull();
                        }
                    }
                    assertThat(r).as("the copy ships COPY text, not rows").isNotInstanceOf(ChangeRecord.Insert.class);
                    if (r instanceof ChangeRecord.Insert insert) {
                        List<Value> values = insert.newTuple().values();
                        String previous = copied.computeIfAbsent(names.get(insert.relationId()), t -> new HashMap<>())
                                .put(ShippedTransactions.text(values.get(0)), values.size() > 1 ? text(values.get(1)) : null);
                        assertThat(previous).as("row %s of %s copied twice", values.get(0), names.get(insert.relationId())).isNull();
                    }
                }
            }
            for (String table : List.of("copy_big", "copy_mid", "copy_small")) {
                assertThat(copied.get(table)).as(table).isEqualTo(primaryRows(table));
            }
            assertThat(copied).doesNotContainKey("copy_empty");

            primary.execute("INSERT INTO copy_small VALUES (100 + " + sessions + ", 'streamed')");
            List<ChangeRecord> after = standby.awaitRecords(r -> ShippedTransactions.commits(r) > transactions.size(), 30_000);
            List<List<ChangeRecord>> streamed = ShippedTransactions.of(after).subList(transactions.size(), ShippedTransactions.of(after).size());
            assertThat(streamed).singleElement().satisfies(tx -> assertThat(tx).filteredOn(r -> r instanceof ChangeRecord.Insert).hasSize(1));
            assertThat(Lsn.compare(((ChangeRecord.Begin) streamed.get(0).get(0)).commitLsn(), copyLsn)).isPositive();
            primary.execute("DELETE FROM copy_small WHERE id > 100");
        }
    }

    @Test
    void showsEachTableBeingCopiedWithItsRowsAndBytesWhileItRuns() throws Exception {
        // a ring of 256 KiB (three 64 KB chunks), held: each session blocks once its two chunks wait, in the middle of its
        // table (copy_mid is about 12 chunks, copy_big 47), so the copy stands still while the test looks
        try (RingCollector standby = new RingCollector(256 << 10)) {
            standby.hold();
            try (Shipper shipper = start("copy_progress", standby, Map.of("snapshot.parallel.tables", "2",
                    "heartbeat.interval.ms", "200"))) {
                // the whole status is what a failure shows: where the start stands (start_step) and any error
                @SuppressWarnings("unchecked")
                Map<String, Object> progress = (Map<String, Object>) Await.until("both large tables copying at once, with rows and bytes",
                        Duration.ofSeconds(120), shipper::status, s -> {
                            assertThat(shipper.failure()).as("the shipper's failure").isNull();
                            @SuppressWarnings("unchecked")
                            Map<String, Object> p = (Map<String, Object>) s.get("copy_progress");
                            return p != null && copying(p).size() == 2 && copying(p).stream().allMatch(t -> ((Number) t.get("rows")).longValue() > 0);
                        }).get("copy_progress");
                assertThat(copying(progress)).extracting(t -> t.get("table")).containsExactly("public.copy_big", "public.copy_mid");
                for (Map<String, Object> t : copying(progress)) {
                    assertThat(((Number) t.get("bytes")).longValue()).as("%s", t).isGreaterThan(((Number) t.get("rows")).longValue());
                    assertThat(t.get("estimated_rows")).as("%s", t).isIn(BIG_ROWS, MID_ROWS, (long) BIG_ROWS, (long) MID_ROWS);
                }
                assertThat(progress).containsEntry("sessions", 2).containsEntry("tables", 4).containsEntry("tables_done", 0);
                assertThat(((Number) progress.get("estimated_rows")).longValue()).isEqualTo(BIG_ROWS + MID_ROWS + 3);
                assertThat(((Number) progress.get("rows")).longValue()).isPositive();
                assertThat(((Number) progress.get("rows_per_s")).longValue()).isPositive();
                assertThat(progress.get("eta_s")).isNotNull();
                @SuppressWarnings("unchecked")
                List<Map<String, Object>> perTable = (List<Map<String, Object>>) progress.get("per_table");
                assertThat(perTable).extracting(t -> t.get("state")).containsExactly("copying", "copying", "waiting", "waiting");
                assertThat(shipper.copyProgress()).as("the coordinator's brief leaves the per-table list out")
                        .doesNotContainKey("per_table").containsKey("copying");

                standby.release();
                awaitCopied(shipper);
                assertThat(shipper.status().get("copy_progress")).as("no copy runs").isNull();
            }
        }
    }

    @Test
    void aSessionThatFailsStopsTheCopyNamingItsTableAndLeavesNoSessionBehind() throws Exception {
        try (RingCollector standby = new RingCollector(1 << 20)) {
            // a frame (a chunk) every 50 ms, heartbeats rarer: copy_big's session (3 MB of COPY text) waits for room
            standby.slowDownPerFrame(TimeUnit.MILLISECONDS.toNanos(50));
            try (Shipper shipper = start("copy_failure", standby, Map.of("snapshot.parallel.tables", "2",
                    "heartbeat.interval.ms", "200"))) {
                Await.until("the copy of copy_big under way", Duration.ofSeconds(60), () -> copySessions("copy_big"), n -> n == 1);
                primary.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'COPY%copy_big%'"
                        + " AND pid <> pg_backend_pid()");
                String failure = Await.until("the shipper failed", Duration.ofSeconds(30), shipper::failure, f -> f != null);
                // copy_big's rows may all be in the socket's buffers already: then the session fails on its next table
                assertThat(failure).containsPattern("initial copy of \"public\"\\.\"copy_(big|small|empty)\": ");
                Await.equalTo("copy sessions left on the primary", Duration.ofSeconds(30), () -> copySessions("copy_"), 0L);
                assertThat(shipper.healthy()).isFalse();
            }
        }
    }

    /**
     * Once the copy is acknowledged the slot confirms the end of each acknowledged commit record, past the standby's
     * durable commit LSN: a restart must still see the copy as done. It once dropped the slot and copied everything
     * again on every restart, emptying the standby's tables meanwhile.
     */
    @Test
    void aRestartedShipperStreamsOnWithoutCopyingAgain() throws Exception {
        Map<String, String> smallOnly = Map.of("publication.tables", "public.copy_small");
        try (RingCollector standby = new RingCollector(1 << 20)) {
            long streamedLsn;
            try (Shipper shipper = start("copy_restart", standby, smallOnly)) {
                awaitCopied(shipper);
                primary.execute("INSERT INTO copy_small VALUES (200, 'before the restart')");
                streamedLsn = commitLsnOfInsert(standby, "200");
                Await.until("the slot confirmed past the standby's durable commit LSN", Duration.ofSeconds(30),
                        () -> slotConfirmed("copy_restart"), lsn -> Lsn.compare(lsn, streamedLsn) > 0);
            }
            awaitReleased("copy_restart");
            int beginsBefore = standby.beginFlags().size();
            try (Shipper again = start("copy_restart", standby, smallOnly)) {
                primary.execute("INSERT INTO copy_small VALUES (201, 'after the restart')");
                commitLsnOfInsert(standby, "201");
                assertThat(again.failure()).isNull();
                assertThat(standby.beginFlags().subList(beginsBefore, standby.beginFlags().size()))
                        .as("no chunk of a second copy").doesNotContain(TransactionDescriptor.BEGIN_SNAPSHOT_CHUNK_FLAG);
            }
        } finally {
            primary.execute("DELETE FROM copy_small WHERE id >= 200");
        }
    }

    /**
     * A new slot's starting point waits for every transaction running on the primary to end, which may take long: the
     * status says so meanwhile, and the copy goes on once it ended.
     */
    @Test
    void statusShowsASlotWaitingForARunningTransaction() throws Exception {
        Map<String, String> smallOnly = Map.of("publication.tables", "public.copy_small");
        try (RingCollector standby = new RingCollector(1 << 20);
             Connection open = primary.connect("postgres"); Statement s = open.createStatement()) {
            open.setAutoCommit(false);
            s.execute("SELECT pg_current_xact_id()"); // a transaction with an id, running
            try (Shipper shipper = start("copy_waits", standby, smallOnly)) {
                Await.until("the status naming the wait", Duration.ofSeconds(30), shipper::status,
                        st -> String.valueOf(st.get("start_step")).startsWith("creating slot copy_waits: waits until"));
                assertThat(shipper.status()).containsEntry("initial_copy", true).containsEntry("copy_progress", null);
                open.commit();
                s.execute("SELECT pg_log_standby_snapshot()"); // what the background writer logs only every 15 s
                open.commit();
                awaitCopied(shipper);
                Await.until("the start done", Duration.ofSeconds(30), shipper::status, st -> st.get("start_step") == null);
            }
        }
    }

    /** A copy the standby never acknowledged is taken again after a restart, from a fresh slot. */
    @Test
    void aCopyCutShortIsTakenAgainAfterARestart() throws Exception {
        Map<String, String> smallOnly = Map.of("publication.tables", "public.copy_small");
        try (RingCollector standby = new RingCollector(1 << 20)) {
            standby.holdDurableAt(1);
            long firstCopy;
            try (Shipper shipper = start("copy_cut", standby, smallOnly)) {
                firstCopy = Await.until("the copy shipped", Duration.ofSeconds(60), shipper::status,
                        s -> Boolean.FALSE.equals(s.get("initial_copy")) && s.get("copy_lsn") != null).get("copy_lsn") instanceof String l
                        ? Lsn.parse(l) : 0;
            }
            awaitReleased("copy_cut");
            int beginsBefore = standby.beginFlags().size();
            standby.holdDurableAt(-1);
            try (Shipper again = start("copy_cut", standby, smallOnly)) {
                awaitCopied(again);
                assertThat(Lsn.compare(Lsn.parse((String) again.status().get("copy_lsn")), firstCopy)).isPositive();
                assertThat(standby.beginFlags().subList(beginsBefore, standby.beginFlags().size()))
                        .as("the chunks of a second copy").contains(TransactionDescriptor.BEGIN_SNAPSHOT_CHUNK_FLAG);
            }
        }
    }

    private static long commitLsnOfInsert(RingCollector standby, String id) {
        List<ChangeRecord> records = standby.awaitRecords(r -> r.stream().anyMatch(c -> c instanceof ChangeRecord.Insert i
                && id.equals(ShippedTransactions.text(i.newTuple().values().get(0)))), 30_000);
        long commitLsn = 0;
        for (ChangeRecord r : records) {
            if (r instanceof ChangeRecord.Begin begin) {
                commitLsn = begin.commitLsn();
            } else if (r instanceof ChangeRecord.Insert i && id.equals(ShippedTransactions.text(i.newTuple().values().get(0)))) {
                return commitLsn;
            }
        }
        throw new AssertionError("insert " + id + " not found");
    }

    /**
     * Until no walsender streams from {@code slot}: a closed shipper's walsender exits a moment after the shipper, and
     * a shipper started before that is refused ("in use by backend pid ...").
     */
    private static void awaitReleased(String slot) {
        Await.until("slot " + slot + " released by the closed shipper", Duration.ofSeconds(30), () -> {
            try (Connection c = primary.connect("postgres"); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT active FROM pg_replication_slots WHERE slot_name = '" + slot + "'")) {
                return !rs.next() || !rs.getBoolean(1);
            }
        });
    }

    private static long slotConfirmed(String slot) throws Exception {
        try (Connection c = primary.connect("postgres"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = '" + slot + "'")) {
            return rs.next() && rs.getString(1) != null ? Lsn.parse(rs.getString(1)) : 0;
        }
    }

    private static long copySessions(String table) throws Exception {
        try (Connection c = primary.connect("postgres"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'COPY%" + table + "%'"
                     + " AND pid <> pg_backend_pid()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> copying(Map<String, Object> progress) {
        return (List<Map<String, Object>>) progress.get("copying");
    }

    private static void awaitCopied(Shipper shipper) {
        Await.until("the copy shipped and acknowledged", Duration.ofSeconds(90), shipper::status,
                s -> {
                    assertThat(shipper.failure()).isNull();
                    return Boolean.FALSE.equals(s.get("initial_copy")) && s.get("copy_lsn") != null
                            && s.get("acknowledged_lsn").equals(s.get("copy_lsn"));
                });
    }

    private static String text(Value value) {
        return value instanceof Value.Null ? null : ShippedTransactions.text(value);
    }

    private static Map<String, String> primaryRows(String table) throws Exception {
        Map<String, String> rows = new HashMap<>();
        try (Connection c = primary.connect("postgres"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM " + table)) {
            while (rs.next()) {
                rows.put(rs.getString(1), rs.getString(2));
            }
        }
        return rows;
    }

    private static Shipper start(String slot, RingCollector standby, Map<String, String> extra) {
        Properties p = new Properties();
        p.setProperty("database.host", PostgresServer.HOST);
        p.setProperty("database.port", Integer.toString(primary.port()));
        p.setProperty("database.user", PostgresServer.SUPERUSER);
        p.setProperty("slot.name", slot);
        p.setProperty("publication.name", slot);
        p.setProperty("publication.tables", TABLES);
        p.setProperty("snapshot.mode", "initial");
        p.setProperty("snapshot.chunk.bytes", Integer.toString(64 << 10));
        p.setProperty("standbys", "a");
        p.setProperty("standby.a.uri", standby.uri());
        p.setProperty("admin.address", "127.0.0.1:0");
        extra.forEach(p::setProperty);
        return Shipper.start(ShipperConfig.load(p), new TextChangeEncoding(), Map.of(), new SimpleMeterRegistry());
    }
}
