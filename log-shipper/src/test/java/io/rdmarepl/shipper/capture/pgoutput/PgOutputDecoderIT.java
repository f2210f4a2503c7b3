package io.rdmarepl.shipper.capture.pgoutput;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.format.CatchUpMarkers;
import io.rdmarepl.format.Lsn;
import io.rdmarepl.format.OldTupleKind;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.Column;
import io.rdmarepl.format.record.Tuple;
import io.rdmarepl.format.record.Value;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The decoder on real pgoutput bytes from a real PostgreSQL 17, taken without a replication connection: each row of
 * {@code pg_logical_slot_get_binary_changes(slot, ..., 'proto_version', '4', 'messages', 'true', 'streaming', 'on')}
 * is one message, fed with its LSN as XLogData would carry it. The records handed to the sink are decoded back with
 * log-format's decoder and compared with what the primary holds. {@code logical_decoding_work_mem = 64kB}, so a few
 * hundred kilobytes of changes are streamed while their transaction is in progress.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PgOutputDecoderIT {
    private static final String SLOT = "pgdecode";
    private static final String INTERVAL_AT_LIMITS = "178000000 years 11 mons 2147483647 days 2562047788:00:54.775807";
    private static final int TEXT = 25;

    private static PostgresServer server;
    private static Connection sql;
    private static Connection catalog;

    private PgOutputSlot slot;

    @BeforeAll
    static void start() throws SQLException {
        server = PostgresServer.builder("pgdecode").durability(Durability.FAST)
            .setting("synchronous_commit", "on")
            .setting("logical_decoding_work_mem", "64kB")
            .start();
        server.execute("""
            CREATE SCHEMA pgd;
            CREATE TYPE pgd.mood AS ENUM ('sad', 'ok', 'happy');
            CREATE DOMAIN pgd.posint AS int4 CHECK (VALUE > 0);
            CREATE TABLE pgd.types (id int PRIMARY KEY, c_int2 int2, c_int8 int8, c_bool bool, c_num numeric(20, 5),
              c_text text, c_varchar varchar(12), c_ts timestamptz, c_interval interval, c_bit bit(8), c_arr int4[],
              c_bytea bytea, c_jsonb jsonb, c_uuid uuid, c_mood pgd.mood, c_posint pgd.posint, c_float float8);
            CREATE TABLE pgd.toasty (id int PRIMARY KEY, n int, big text);
            ALTER TABLE pgd.toasty ALTER COLUMN big SET STORAGE EXTERNAL;
            CREATE TABLE pgd.full_t (a int, b text);
            ALTER TABLE pgd.full_t REPLICA IDENTITY FULL;
            CREATE TABLE pgd.parent (id serial PRIMARY KEY, v text);
            CREATE TABLE pgd.child (id serial PRIMARY KEY, parent_id int REFERENCES pgd.parent (id));
            CREATE TABLE pgd.other (id bigserial PRIMARY KEY);
            CREATE TABLE pgd.big (id int PRIMARY KEY, payload text);
            CREATE PUBLICATION pgdecode_pub FOR ALL TABLES;
            """);
        server.execute("SELECT pg_create_logical_replication_slot('" + SLOT + "', 'pgoutput')");
        sql = server.connect("postgres");
        catalog = server.connect("postgres");
    }

    @AfterAll
    static void stop() throws SQLException {
        if (sql != null) {
            sql.close();
        }
        if (catalog != null) {
            catalog.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void drainSlot() throws SQLException {
        slot = new PgOutputSlot(sql, catalog, SLOT, "pgdecode_pub");
        slot.drain(); // what an earlier test left behind
    }

    @Test
    void insertsUpdatesAndDeletesCarryTheServersExactText() throws Exception {
        execute("""
            INSERT INTO pgd.types VALUES (1, -32768, -9223372036854775808, true, 12345.6789, 'caf\u00e9 \uD83D\uDE00',
              'short text', '2024-02-29 12:34:56.789012+05:30', '%s', B'10100101', '{1,NULL,3}', '\\xdeadbeef',
              '{"a": [1, 2.50]}', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'happy', 7, 3.14);
            INSERT INTO pgd.types (id) VALUES (2);
            UPDATE pgd.types SET c_text = 'changed', c_bit = B'00000001' WHERE id = 1;
            DELETE FROM pgd.types WHERE id = 2;
            """.formatted(INTERVAL_AT_LIMITS));

        PgOutputSlot.Decoded decoded = slot.read();

        assertThat(decoded.shipped()).hasSize(4);
        List<ChangeRecord> first = decoded.shipped().get(0).body();
        ChangeRecord.Relation relation = (ChangeRecord.Relation) first.get(0);
        assertThat(relation.relationId()).isEqualTo(oid("pgd.types"));
        assertThat(relation.schema()).isEqualTo("pgd");
        assertThat(relation.table()).isEqualTo("types");
        assertThat(relation.replicaIdentity()).isEqualTo('d');
        assertThat(relation.columns()).extracting(Column::name).containsExactly("id", "c_int2", "c_int8", "c_bool",
            "c_num", "c_text", "c_varchar", "c_ts", "c_interval", "c_bit", "c_arr", "c_bytea", "c_jsonb", "c_uuid",
            "c_mood", "c_posint", "c_float");
        assertThat(relation.columns()).filteredOn(Column::key).extracting(Column::name).containsExactly("id");
        List<Integer> typeOids = relation.columns().stream().map(Column::typeOid).toList();
        assertThat(typeOids).isEqualTo(columnTypeOids("pgd.types"));
        assertThat(column(relation, "c_varchar")).isEqualTo(new Column("c_varchar", 1043, "character varying", 16, false));
        assertThat(column(relation, "c_mood").typeName()).as("named by pgoutput's Type message").isEqualTo("pgd.mood");
        assertThat(column(relation, "c_posint").typeName()).as("a domain: its base type").isEqualTo("int4");
        assertThat(slot.namedTypes()).as("the lookup is asked only about built-in types, once each")
            .allMatch(t -> t < 10_000).doesNotHaveDuplicates();

        List<Value> row = ((ChangeRecord.Insert) first.get(1)).newTuple().values();
        assertThat(row.subList(0, 4)).containsExactly(new Value.Int4(1), new Value.Int2(Short.MIN_VALUE),
            new Value.Int8(Long.MIN_VALUE), new Value.Bool(true));
        assertThat(row.get(8)).isEqualTo(new Value.TextFallback(1186, INTERVAL_AT_LIMITS));
        assertThat(row.get(9)).isEqualTo(new Value.TextFallback(1560, "10100101"));
        assertThat(row.get(10)).isEqualTo(new Value.TextFallback(1007, "{1,NULL,3}"));
        assertThat(row.get(11)).isEqualTo(new Value.TextFallback(17, "\\xdeadbeef"));
        assertThat(row.get(15)).as("a domain over int4 is parsed like int4").isEqualTo(new Value.Int4(7));
        List<String> serverText = rowText("pgd.types", 1, relation);
        assertThat(row.get(5)).isEqualTo(new Value.TextFallback(TEXT, "caf\u00e9 \uD83D\uDE00"));
        for (int c : new int[] {4, 6, 7, 12, 13, 14, 16}) {
            assertThat(row.get(c)).as(relation.columns().get(c).name())
                .isEqualTo(new Value.TextFallback(typeOids.get(c), serverText.get(c)));
        }
        assertThat(serverText.get(5)).isEqualTo("changed");
        for (Value value : row) {
            if (value instanceof Value.TextFallback text) {
                assertThat(castAsTheApplierDoes(text)).as("%s cast back", text).isEqualTo(text.text());
            }
        }

        List<Value> nulls = ((ChangeRecord.Insert) decoded.shipped().get(1).body().get(0)).newTuple().values();
        assertThat(nulls.get(0)).isEqualTo(new Value.Int4(2));
        assertThat(nulls.subList(1, nulls.size())).containsOnly(Value.NULL);

        ChangeRecord.Update update = (ChangeRecord.Update) decoded.shipped().get(2).body().get(0);
        assertThat(update.oldTupleKind()).as("the key did not change: no old tuple").isEqualTo(OldTupleKind.NONE);
        assertThat(update.newTuple().values().get(5)).isEqualTo(new Value.TextFallback(TEXT, "changed"));
        assertThat(update.newTuple().values().get(9)).isEqualTo(new Value.TextFallback(1560, "00000001"));
        assertThat(update.newTuple().values().get(8)).isEqualTo(new Value.TextFallback(1186, INTERVAL_AT_LIMITS));

        ChangeRecord.Delete delete = (ChangeRecord.Delete) decoded.shipped().get(3).body().get(0);
        assertThat(delete.oldTupleKind()).isEqualTo(OldTupleKind.KEY);
        assertThat(delete.oldTuple().values().get(0)).isEqualTo(new Value.Int4(2));
        assertThat(delete.oldTuple().values().subList(1, 17)).as("non-key columns of an old key").containsOnly(Value.NULL);
    }

    @Test
    void anUpdateOfAnotherColumnLeavesTheToastedValueUnchanged() throws Exception {
        execute("""
            INSERT INTO pgd.toasty SELECT 1, 1, string_agg(md5(i::text), '') FROM generate_series(1, 200) i;
            UPDATE pgd.toasty SET n = 2 WHERE id = 1;
            """);
        String big = queryText("SELECT big FROM pgd.toasty WHERE id = 1");

        PgOutputSlot.Decoded decoded = slot.read();

        assertThat(big).hasSize(6400);
        assertThat(decoded.shipped()).hasSize(2);
        ChangeRecord.Insert insert = (ChangeRecord.Insert) decoded.shipped().get(0).changes().get(0);
        assertThat(insert.newTuple().values().get(2)).isEqualTo(new Value.TextFallback(TEXT, big));
        ChangeRecord.Update update = (ChangeRecord.Update) decoded.shipped().get(1).changes().get(0);
        assertThat(update.newTuple()).isEqualTo(new Tuple(List.of(new Value.Int4(1), new Value.Int4(2),
            Value.UNCHANGED_TOAST)));
    }

    @Test
    void aKeyUpdateCarriesTheOldKey() throws Exception {
        execute("""
            INSERT INTO pgd.types (id, c_text) VALUES (20, 'moving');
            UPDATE pgd.types SET id = 21 WHERE id = 20;
            """);

        PgOutputSlot.Decoded decoded = slot.read();

        ChangeRecord.Update update = (ChangeRecord.Update) decoded.shipped().get(1).changes().get(0);
        assertThat(update.oldTupleKind()).isEqualTo(OldTupleKind.KEY);
        assertThat(update.oldTuple().values().get(0)).isEqualTo(new Value.Int4(20));
        assertThat(update.oldTuple().values().subList(1, 17)).containsOnly(Value.NULL);
        assertThat(update.newTuple().values().get(0)).isEqualTo(new Value.Int4(21));
        assertThat(update.newTuple().values().get(5)).isEqualTo(new Value.TextFallback(TEXT, "moving"));
    }

    @Test
    void replicaIdentityFullCarriesTheWholeOldRow() throws Exception {
        execute("""
            INSERT INTO pgd.full_t VALUES (1, 'a');
            UPDATE pgd.full_t SET b = 'b';
            DELETE FROM pgd.full_t;
            """);

        PgOutputSlot.Decoded decoded = slot.read();

        ChangeRecord.Relation relation = (ChangeRecord.Relation) decoded.shipped().get(0).body().get(0);
        assertThat(relation.replicaIdentity()).isEqualTo('f');
        assertThat(relation.columns()).allMatch(Column::key);
        ChangeRecord.Update update = (ChangeRecord.Update) decoded.shipped().get(1).changes().get(0);
        assertThat(update.oldTupleKind()).isEqualTo(OldTupleKind.FULL);
        assertThat(update.oldTuple()).isEqualTo(new Tuple(List.of(new Value.Int4(1), new Value.TextFallback(TEXT, "a"))));
        assertThat(update.newTuple()).isEqualTo(new Tuple(List.of(new Value.Int4(1), new Value.TextFallback(TEXT, "b"))));
        ChangeRecord.Delete delete = (ChangeRecord.Delete) decoded.shipped().get(2).changes().get(0);
        assertThat(delete.oldTupleKind()).isEqualTo(OldTupleKind.FULL);
        assertThat(delete.oldTuple()).isEqualTo(update.newTuple());
    }

    @Test
    void truncateCarriesItsRelationsAndFlags() throws Exception {
        execute("""
            INSERT INTO pgd.parent (v) VALUES ('p');
            INSERT INTO pgd.child (parent_id) SELECT id FROM pgd.parent;
            TRUNCATE pgd.parent RESTART IDENTITY CASCADE;
            TRUNCATE pgd.other, pgd.big;
            """);

        PgOutputSlot.Decoded decoded = slot.read();

        assertThat(decoded.shipped()).hasSize(4);
        List<ChangeRecord> cascade = decoded.shipped().get(2).body();
        ChangeRecord.Truncate truncate = (ChangeRecord.Truncate) cascade.get(cascade.size() - 1);
        assertThat(truncate.cascade()).isTrue();
        assertThat(truncate.restartIdentity()).isTrue();
        assertThat(truncate.relationIds()).containsExactlyInAnyOrder(oid("pgd.parent"), oid("pgd.child"));
        ChangeRecord.Truncate plain = (ChangeRecord.Truncate) decoded.shipped().get(3).changes().get(0);
        assertThat(plain.cascade()).isFalse();
        assertThat(plain.restartIdentity()).isFalse();
        assertThat(plain.relationIds()).containsExactlyInAnyOrder(oid("pgd.other"), oid("pgd.big"));
        assertThat(decoded.shipped().get(3).body()).as("a Relation record for each table not yet described")
            .filteredOn(r -> r instanceof ChangeRecord.Relation).hasSize(2);
    }

    @Test
    void aMarkerOnlyTransactionIsShippedAndOtherMessagesAreNot() throws Exception {
        long markerLsn;
        try (Statement s = sql.createStatement()) {
            sql.setAutoCommit(false);
            markerLsn = Lsn.parse(queryText("SELECT pg_logical_emit_message(true, '" + CatchUpMarkers.PREFIX
                + "', 'caught up?')::text"));
            sql.commit();
            s.execute("SELECT pg_logical_emit_message(true, 'someone.else', 'not ours')");
            sql.commit();
            sql.setAutoCommit(true);
            s.execute("SELECT pg_logical_emit_message(false, '" + CatchUpMarkers.PREFIX + "', 'no transaction')");
        }

        PgOutputSlot.Decoded decoded = slot.read();

        assertThat(decoded.types()).contains("M");
        assertThat(decoded.shipped()).hasSize(1);
        CollectingSink.Shipped marker = decoded.shipped().get(0);
        assertThat(marker.marker()).isTrue();
        assertThat(marker.records()).hasSize(2);
        assertThat(Lsn.compare(marker.commitLsn(), markerLsn)).as("the message's end is where its commit starts")
            .isNotNegative();
        assertThat(Lsn.compare(marker.endLsn(), marker.commitLsn())).isPositive();
        assertThat(decoded.sink().empty).hasSize(1);
    }

    @Test
    void aRolledBackTransactionAndARolledBackSavepointAreNeverShipped() throws Exception {
        try (Statement s = sql.createStatement()) {
            sql.setAutoCommit(false);
            s.execute("INSERT INTO pgd.big VALUES (-1, 'rolled back')");
            sql.rollback();
            s.execute("INSERT INTO pgd.big VALUES (-2, 'kept')");
            s.execute("SAVEPOINT s");
            s.execute("INSERT INTO pgd.big VALUES (-3, 'rolled back to s')");
            s.execute("ROLLBACK TO SAVEPOINT s");
            s.execute("INSERT INTO pgd.big VALUES (-4, 'kept too')");
            sql.commit();
            sql.setAutoCommit(true);
        }

        PgOutputSlot.Decoded decoded = slot.read();

        assertThat(decoded.shipped()).hasSize(1);
        assertThat(ids(decoded.shipped().get(0))).containsExactly(-2, -4);
    }

    @Test
    void largeTransactionsAreStreamedAndOnlyWhatCommittedIsShipped() throws Exception {
        String payload = "repeat('x', 100)";
        try (Connection a = server.connect("postgres"); Connection b = server.connect("postgres");
             Connection c = server.connect("postgres");
             Statement sa = a.createStatement(); Statement sb = b.createStatement(); Statement sc = c.createStatement()) {
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            c.setAutoCommit(false);
            sa.execute("INSERT INTO pgd.big SELECT i, " + payload + " FROM generate_series(1, 1500) i");
            sa.execute("SAVEPOINT s");
            sa.execute("INSERT INTO pgd.big SELECT i, " + payload + " FROM generate_series(100001, 101500) i");
            sb.execute("INSERT INTO pgd.big SELECT i, " + payload + " FROM generate_series(50001, 51500) i");
            sa.execute("ROLLBACK TO SAVEPOINT s");
            sc.execute("INSERT INTO pgd.big SELECT i, " + payload + " FROM generate_series(70001, 71500) i");
            sa.execute("INSERT INTO pgd.big SELECT i, " + payload + " FROM generate_series(2001, 2100) i");
            b.commit();
            c.rollback();
            a.commit();
        }

        PgOutputSlot.Decoded decoded = slot.read();

        assertThat(decoded.types()).as("message types").contains("S", "E", "c", "A");
        assertThat(decoded.streamAborts()).as("a subtransaction's abort and a whole transaction's")
            .anyMatch(ids -> ids[0] != ids[1]).anyMatch(ids -> ids[0] == ids[1]);
        assertThat(decoded.shipped()).hasSize(2);
        assertThat(ids(decoded.shipped().get(0))).as("b committed first")
            .isEqualTo(IntStream.rangeClosed(50001, 51500).boxed().toList());
        List<Integer> expectedA = new ArrayList<>(IntStream.rangeClosed(1, 1500).boxed().toList());
        expectedA.addAll(IntStream.rangeClosed(2001, 2100).boxed().toList());
        assertThat(ids(decoded.shipped().get(1))).as("a without its rolled-back savepoint").isEqualTo(expectedA);
        for (CollectingSink.Shipped txn : decoded.shipped()) {
            assertThat(txn.body().get(0)).as("a streamed transaction carries its Relation record")
                .isInstanceOf(ChangeRecord.Relation.class);
            ChangeRecord.Insert insert = (ChangeRecord.Insert) txn.changes().get(0);
            assertThat(insert.newTuple().values().get(1)).isEqualTo(new Value.TextFallback(TEXT, "x".repeat(100)));
        }
        assertThat(Lsn.compare(decoded.shipped().get(0).commitLsn(), decoded.shipped().get(1).commitLsn())).isNegative();
    }

    /**
     * The text bound as the applier binds a TEXT_FALLBACK value (a String parameter cast to the column's type without
     * modifier, ValueBinder and ReplicaCatalog), read back as text.
     */
    private static String castAsTheApplierDoes(Value.TextFallback value) throws SQLException {
        String castType = queryText("SELECT pg_catalog.format_type(" + Integer.toUnsignedLong(value.typeOid()) + ", -1)");
        try (PreparedStatement s = sql.prepareStatement("SELECT (?::" + castType + ")::text")) {
            s.setString(1, value.text());
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    /** Runs each statement (one per line ending in ';') in its own transaction. */
    private static void execute(String statements) throws SQLException {
        try (Statement s = sql.createStatement()) {
            for (String statement : statements.split(";\\s*\\n")) {
                if (!statement.isBlank()) {
                    s.execute(statement);
                }
            }
        }
    }

    private static String queryText(String query) throws SQLException {
        try (Statement s = sql.createStatement(); ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static int oid(String table) throws SQLException {
        return Integer.parseInt(queryText("SELECT '" + table + "'::regclass::oid::text"));
    }

    private static List<Integer> columnTypeOids(String table) throws SQLException {
        List<Integer> oids = new ArrayList<>();
        try (Statement s = sql.createStatement(); ResultSet rs = s.executeQuery("SELECT atttypid::int FROM pg_attribute"
            + " WHERE attrelid = '" + table + "'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum")) {
            while (rs.next()) {
                oids.add(rs.getInt(1));
            }
        }
        return oids;
    }

    /** Every column of a row as the server's text output, in this session (same TimeZone, DateStyle, ...). */
    private static List<String> rowText(String table, int id, ChangeRecord.Relation relation) throws SQLException {
        StringBuilder query = new StringBuilder("SELECT ");
        for (int i = 0; i < relation.columns().size(); i++) {
            query.append(i == 0 ? "" : ", ").append(relation.columns().get(i).name()).append("::text");
        }
        query.append(" FROM ").append(table).append(" WHERE id = ").append(id);
        List<String> text = new ArrayList<>();
        try (Statement s = sql.createStatement(); ResultSet rs = s.executeQuery(query.toString())) {
            rs.next();
            for (int i = 1; i <= relation.columns().size(); i++) {
                text.add(rs.getString(i));
            }
        }
        return Collections.unmodifiableList(text);
    }

    private static Column column(ChangeRecord.Relation relation, String name) {
        return relation.columns().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    private static List<Integer> ids(CollectingSink.Shipped txn) {
        return txn.changes().stream().map(r -> ((Value.Int4) ((ChangeRecord.Insert) r).newTuple().values().get(0)).value())
            .toList();
    }
}
