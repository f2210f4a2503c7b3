package io.rdmarepl.shipper.encode;


import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.Column;
import io.rdmarepl.format.record.Tuple;
import io.rdmarepl.format.record.Value;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;


/**
 * What the encode ITs share: a real primary (server TimeZone America/St_Johns, IntervalStyle sql_standard,
 * bytea_output escape, extra_float_digits 0; JVM zone Pacific/Chatham) with a real Debezium engine capturing it, and
 * the helpers that read the primary's catalog. Each subclass gets its own server and engine.
 */
abstract class EncodeFixture {
    static final String SLOT = "enc_types";
    static TimeZone savedZone;
    static PostgresServer server;
    static DebeziumCapture capture;
    static RelationCatalog catalog;
    static ChangeEventEncoder encoder;

    @BeforeAll
    static void start() throws Exception {
        savedZone = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("Pacific/Chatham"));
        server = PostgresServer.builder("primary").durability(Durability.FAST)
            .setting("timezone", "America/St_Johns")
            // hostile defaults the capture sessions must not inherit (CaptureSessionSettings): under sql_standard
            // PGInterval drops years, months and days; under escape a bytea[] stopped capture
            .setting("IntervalStyle", "sql_standard").setting("bytea_output", "escape")
            // and floats rounded to 15 and 6 digits
            .setting("extra_float_digits", "0").start();
        server.execute(AllTypesFixture.SETUP);
        server.execute("""
            CREATE TABLE enc.toasty (id int PRIMARY KEY, n int, big text, big_b bytea, big_arr int[], big_j jsonb);
            ALTER TABLE enc.toasty ALTER COLUMN big SET STORAGE EXTERNAL, ALTER COLUMN big_b SET STORAGE EXTERNAL,
              ALTER COLUMN big_arr SET STORAGE EXTERNAL, ALTER COLUMN big_j SET STORAGE EXTERNAL;
            CREATE TABLE enc.pk_t (id int PRIMARY KEY, v text, g int GENERATED ALWAYS AS (id * 2) STORED);
            CREATE TABLE enc.full_t (a int, b text);
            ALTER TABLE enc.full_t REPLICA IDENTITY FULL;
            CREATE TABLE enc.alter_t (id int PRIMARY KEY, a int);
            CREATE TABLE enc.styled (id int PRIMARY KEY, iv interval, ivs interval[], by bytea[]);
            CREATE TABLE enc.far (id int PRIMARY KEY, ts timestamp, ts0 timestamp(0), tstz timestamptz);
            CREATE DOMAIN enc.stamp AS timestamp;
            CREATE DOMAIN enc.stampz AS timestamptz;
            CREATE DOMAIN enc.day AS date;
            CREATE TABLE enc.dom (id int PRIMARY KEY, dts enc.stamp, dtz enc.stampz, dd enc.day);
            """);
        capture = DebeziumCapture.start(server, SLOT, "no_data",
            "enc.all_types", "enc.toasty", "enc.pk_t", "enc.full_t", "enc.alter_t", "enc.styled", "enc.far", "enc.dom");
        capture.awaitStreaming(server, SLOT);
        catalog = RelationCatalog.forJdbcUrl(server.jdbcUrl("postgres"), new java.util.Properties());
        encoder = new ChangeEventEncoder(catalog);
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (capture != null) {
                capture.close();
            }
            if (catalog != null) {
                catalog.close();
            }
            if (server != null) {
                server.close();
            }
        } finally {
            TimeZone.setDefault(savedZone);
        }
    }

    /** Columns whose snapshot value differs from the streamed one (see the report / ValueEncoder Javadoc). */
    static final java.util.Set<String> KNOWN_SNAPSHOT_DIFFERENCES = java.util.Set.of(
        "c_timetz"); // exact in the snapshot, moved to UTC by Debezium's stream decoder

    static Value fallback(Map<String, Integer> oids, String column, String text) {
        return new Value.TextFallback(oids.get(column), text);
    }

    static Column byName(ChangeRecord.Relation rel, String name) {
        return rel.columns().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    static Map<String, Value> values(ChangeRecord.Relation rel, Tuple tuple) {
        Map<String, Value> out = new LinkedHashMap<>();
        for (int i = 0; i < rel.columns().size(); i++) {
            out.put(rel.columns().get(i).name(), tuple.values().get(i));
        }
        return out;
    }

    static long micros(String instant) {
        Instant i = Instant.parse(instant);
        return i.getEpochSecond() * 1_000_000L + i.getNano() / 1000;
    }

    static int tableColumnType(String table, String column) throws Exception {
        return typeOids(table).get(column);
    }

    static int tableOid(String table) throws Exception {
        return Integer.parseInt(text("SELECT '" + table + "'::regclass::oid"));
    }

    static List<String> catalogColumns(String table) throws Exception {
        List<String> names = new ArrayList<>();
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT attname FROM pg_attribute WHERE attrelid = '" + table
                 + "'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    static Map<String, Integer> typeOids(String table) throws Exception {
        Map<String, Integer> oids = new HashMap<>();
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT attname, atttypid FROM pg_attribute WHERE attrelid = '" + table
                 + "'::regclass AND attnum > 0 AND NOT attisdropped")) {
            while (rs.next()) {
                oids.put(rs.getString(1), rs.getInt(2));
            }
        }
        return oids;
    }

    static void assertCastable(String typeName) throws Exception {
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement()) {
            s.execute("SET search_path = pg_catalog");
            s.execute("SELECT NULL::" + typeName);
        }
    }

    static String text(String sql) throws Exception {
        try (Connection c = server.connect("postgres"); PreparedStatement s = c.prepareStatement(sql);
             ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }
}
