package io.rdmarepl.testsupport.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresPairExtension;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.compare.Difference.Kind;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The comparison is itself a check, so it is tested the way a checker is judged: by the defects it finds. Both
 * servers get the same tables and rows (database {@code base}, cloned for each test); the replica's copy of one
 * table has its columns in another order plus a column of its own, and its copy of a partitioned table is a plain
 * table. Then defects are planted on the replica, one at a time and all together, and each must be named exactly.
 */
class ReplicaComparisonIT {
    @RegisterExtension
    static final PostgresPairExtension POSTGRES = new PostgresPairExtension(Durability.FAST);

    private static final String BASE = "base";
    private static final AtomicInteger DATABASES = new AtomicInteger();

    private static final String ALL_TYPES_PRIMARY = """
            CREATE TABLE public.all_types (id int PRIMARY KEY, bp char(5), bits bit(8), vb varbit, ts timestamp, tstz timestamptz,
                ia int[], ta text[], num numeric, f8 float8, ba bytea, j json, jb jsonb, iv interval, u uuid, t text, m money,
                gen int GENERATED ALWAYS AS (id * 2) STORED);
            CREATE TABLE public.events (id int, region text, PRIMARY KEY (id)) PARTITION BY RANGE (id);
            CREATE TABLE public.events_low PARTITION OF public.events FOR VALUES FROM (0) TO (10);
            CREATE TABLE public.events_high PARTITION OF public.events FOR VALUES FROM (10) TO (100);
            """;

    /** Columns in another order, bound by name; applied_at only here, as the demo's probe table has it. */
    private static final String ALL_TYPES_REPLICA = """
            CREATE TABLE public.all_types (applied_at timestamptz DEFAULT now(), t text, gen int GENERATED ALWAYS AS (id * 2) STORED,
                m money, u uuid, iv interval, jb jsonb, j json, ba bytea, f8 float8, num numeric, ta text[], ia int[],
                tstz timestamptz, ts timestamp, vb varbit, bits bit(8), bp char(5), id int PRIMARY KEY);
            CREATE TABLE public.events (id int PRIMARY KEY, region text);
            CREATE SCHEMA rdmarepl;
            CREATE TABLE rdmarepl.applied_position (source text PRIMARY KEY);
            CREATE TABLE public.replica_only (id int);
            """;

    private static final String COMMON = """
            CREATE SCHEMA "Odd";
            CREATE TABLE "Odd"."Mixed Case" ("Key" int PRIMARY KEY, "Value" text);
            CREATE TABLE public.keyless (a int, b text);
            ALTER TABLE public.keyless REPLICA IDENTITY FULL;
            CREATE TABLE public.big (id int PRIMARY KEY, v text);
            CREATE TABLE public.gone (id int PRIMARY KEY);
            CREATE TABLE public.serial_rows (id bigserial PRIMARY KEY, v text);
            CREATE SEQUENCE public.counter;
            """;

    private static final String ROWS = """
            INSERT INTO public.all_types (id, bp, bits, vb, ts, tstz, ia, ta, num, f8, ba, j, jb, iv, u, t, m) VALUES
              (1, 'ab', B'10101010', B'101', '2024-02-29 23:59:59.999999', '2024-02-29 23:59:59.999999+05:30', '{1,2,3}',
               '{"a b",NULL,"c,d"}', 12345.678900, 1.5, '\\xdeadbeef', '{"a": 1}', '{"b": [1, 2]}',
               '1 year 2 mons 3 days 04:05:06.789', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'plain', 12.34),
              (2, 'xyz', B'00000001', B'', '1999-12-31 00:00:00', '1999-12-31 00:00:00-08', '{}', '{}', -0.5, '-0', '\\x',
               '[]', '{}', '-1 days +00:00:01', '00000000-0000-0000-0000-000000000000', 'two', -1),
              (3, 'q', B'11111111', B'0', '2000-01-01 12:00:00', '2000-01-01 12:00:00+00', '{7}', '{""}', 'NaN', 0.1::float8 + 0.2::float8,
               '\\x00', '"s"', 'null', '0', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '', 0),
              (4, 'NULL', B'00000000', NULL, NULL, NULL, '{NULL}', '{NULL,"NULL"}', 0, 'NaN', NULL, NULL, NULL, NULL, NULL, 'NULL', NULL),
              (5, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
            INSERT INTO public.events SELECT i, 'r' || i FROM generate_series(1, 20) i;
            INSERT INTO "Odd"."Mixed Case" VALUES (1, 'x'), (2, 'y');
            INSERT INTO public.keyless VALUES (1, 'dup'), (1, 'dup'), (2, NULL), (3, 'x');
            INSERT INTO public.big SELECT i, 'v' || i FROM generate_series(1, 5000) i;
            INSERT INTO public.gone VALUES (1), (2);
            INSERT INTO public.serial_rows (v) VALUES ('a'), ('b'), ('c');
            SELECT nextval('public.counter'), nextval('public.counter');
            """;

    /** A defect planted on the replica and the differences it must produce. */
    record Defect(String name, String sql, boolean aloneOnly, List<Difference> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Defect> defects() {
        return Stream.of(
                new Defect("char(n) truncated", "UPDATE public.all_types SET bp = 'a' WHERE id = 1", false,
                        List.of(column("public.all_types", "(id)=(1)", "bp", "ab   ", "a    "))),
                new Defect("bit flipped", "UPDATE public.all_types SET bits = B'10101011' WHERE id = 1", false,
                        List.of(column("public.all_types", "(id)=(1)", "bits", "10101010", "10101011"))),
                new Defect("timestamp 1 us later", "UPDATE public.all_types SET ts = ts + interval '1 microsecond' WHERE id = 1", false,
                        List.of(column("public.all_types", "(id)=(1)", "ts", "2024-02-29 23:59:59.999999", "2024-03-01 00:00:00"))),
                new Defect("array element dropped", "UPDATE public.all_types SET ia = ia[1:2] WHERE id = 1", false,
                        List.of(column("public.all_types", "(id)=(1)", "ia", "{1,2,3}", "{1,2}"))),
                new Defect("-0 became 0", "UPDATE public.all_types SET f8 = 0 WHERE id = 2", false,
                        List.of(column("public.all_types", "(id)=(2)", "f8", "-0", "0"))),
                new Defect("float rounded to 15 digits", "UPDATE public.all_types SET f8 = 0.3 WHERE id = 3", false,
                        List.of(column("public.all_types", "(id)=(3)", "f8", "0.30000000000000004", "0.3"))),
                new Defect("json white space", "UPDATE public.all_types SET j = '{\"a\":1}' WHERE id = 1", false,
                        List.of(column("public.all_types", "(id)=(1)", "j", "{\"a\": 1}", "{\"a\":1}"))),
                new Defect("column named t", "UPDATE public.all_types SET t = 'other' WHERE id = 1", false,
                        List.of(column("public.all_types", "(id)=(1)", "t", "plain", "other"))),
                new Defect("'' became NULL", "UPDATE public.all_types SET t = NULL WHERE id = 3", false,
                        List.of(column("public.all_types", "(id)=(3)", "t", "", null))),
                new Defect("'NULL' became NULL", "UPDATE public.all_types SET t = NULL WHERE id = 4", false,
                        List.of(column("public.all_types", "(id)=(4)", "t", "NULL", null))),
                new Defect("generated column differs",
                        "ALTER TABLE public.all_types ALTER COLUMN gen DROP EXPRESSION; UPDATE public.all_types SET gen = 0 WHERE id = 1", false,
                        List.of(column("public.all_types", "(id)=(1)", "gen", "2", "0"))),
                new Defect("row missing", "DELETE FROM public.big WHERE id = 17", false,
                        List.of(new Difference(Kind.ROW_MISSING, "public.big", "(id)=(17)", null, "(17,v17)", null))),
                new Defect("row extra", "INSERT INTO public.big VALUES (5001, 'v5001')", false,
                        List.of(new Difference(Kind.ROW_EXTRA, "public.big", "(id)=(5001)", null, null, "(5001,v5001)"))),
                new Defect("row changed deep in a big table", "UPDATE public.big SET v = 'changed' WHERE id = 4321", false,
                        List.of(column("public.big", "(id)=(4321)", "v", "v4321", "changed"))),
                new Defect("row missing in a partition", "DELETE FROM public.events WHERE id = 15", false,
                        List.of(new Difference(Kind.ROW_MISSING, "public.events", "(id)=(15)", null, "(15,r15)", null))),
                new Defect("one copy of a duplicated keyless row missing",
                        "DELETE FROM public.keyless WHERE ctid = (SELECT ctid FROM public.keyless WHERE a = 1 LIMIT 1)", false,
                        List.of(new Difference(Kind.ROW_MISSING, "public.keyless", null, null, "(1,dup)", null))),
                new Defect("keyless row duplicated", "INSERT INTO public.keyless VALUES (3, 'x')", false,
                        List.of(new Difference(Kind.ROW_EXTRA, "public.keyless", null, null, null, "(3,x)"))),
                new Defect("mixed-case column differs", "UPDATE \"Odd\".\"Mixed Case\" SET \"Value\" = 'X' WHERE \"Key\" = 1", true,
                        List.of(column("\"Odd\".\"Mixed Case\"", "(\"Key\")=(1)", "Value", "x", "X"))),
                new Defect("column missing", "ALTER TABLE \"Odd\".\"Mixed Case\" DROP COLUMN \"Value\"", false,
                        List.of(new Difference(Kind.COLUMN_MISSING, "\"Odd\".\"Mixed Case\"", null, "Value", "text", null))),
                new Defect("table missing", "DROP TABLE public.gone", false,
                        List.of(new Difference(Kind.TABLE_MISSING, "public.gone", null, null, null, null))),
                new Defect("sequence behind", "SELECT setval('public.counter', 1)", false,
                        List.of(new Difference(Kind.SEQUENCE_DIFFERS, "public.counter", null, null,
                                "last_value=2, is_called=true", "last_value=1, is_called=true"))),
                new Defect("sequence missing", "ALTER TABLE public.serial_rows ALTER COLUMN id DROP DEFAULT; DROP SEQUENCE public.serial_rows_id_seq", false,
                        List.of(new Difference(Kind.SEQUENCE_MISSING, "public.serial_rows_id_seq", null, null,
                                "last_value=3, is_called=true", null))),
                new Defect("char(5) became varchar(5)", "ALTER TABLE public.all_types ALTER COLUMN bp TYPE varchar(5)", true,
                        List.of(new Difference(Kind.COLUMN_TYPE_DIFFERS, "public.all_types", null, "bp", "character(5)", "character varying(5)"),
                                column("public.all_types", "(id)=(1)", "bp", "ab   ", "ab"),
                                column("public.all_types", "(id)=(2)", "bp", "xyz  ", "xyz"),
                                column("public.all_types", "(id)=(3)", "bp", "q    ", "q"),
                                column("public.all_types", "(id)=(4)", "bp", "NULL ", "NULL"))));
    }

    @BeforeAll
    static void createBase() {
        POSTGRES.primary().createDatabase(BASE);
        POSTGRES.replica().createDatabase(BASE);
        POSTGRES.primary().execute(BASE, ALL_TYPES_PRIMARY + COMMON + ROWS);
        POSTGRES.replica().execute(BASE, ALL_TYPES_REPLICA + COMMON + ROWS);
    }

    @Test
    void identicalTablesAreEqualWhateverTheColumnOrderPartitioningAndReplicaOnlyColumns() throws SQLException {
        String db = cloneBase();

        ComparisonReport report = ReplicaComparison.between(POSTGRES.primary(), POSTGRES.replica()).database(db).run();

        assertThat(report.equal()).as("%s", report).isTrue();
        assertThat(report.differences()).isEmpty();
        assertThat(report.tables()).extracting(TableResult::table).containsExactly(
                "\"Odd\".\"Mixed Case\"", "public.all_types", "public.big", "public.events", "public.gone", "public.keyless", "public.serial_rows");
        assertThat(report.sequences()).extracting(SequenceResult::sequence).containsExactly("public.counter", "public.serial_rows_id_seq");
        assertThat(report.toString())
                .startsWith("replica = primary: EQUAL (7 tables compared; 2 sequences compared)\n")
                .contains("public.all_types: 5 rows on both, equal; replica-only columns not compared: applied_at\n")
                .contains("public.big: 5000 rows on both, equal\n")
                .contains("public.events: 20 rows on both, equal\n")
                .contains("public.keyless: 4 rows on both, equal\n")
                .contains("sequence public.counter: last_value=2, is_called=true on both, equal\n")
                .doesNotContain("events_low", "rdmarepl", "replica_only");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("defects")
    void eachPlantedDefectIsNamed(Defect defect) throws SQLException {
        String db = cloneBase();
        POSTGRES.replica().execute(db, defect.sql());

        ComparisonReport report = ReplicaComparison.between(POSTGRES.primary(), POSTGRES.replica()).database(db).run();

        assertThat(report.equal()).as("%s", report).isFalse();
        assertThat(report.differences()).as("%s", report).containsExactlyInAnyOrderElementsOf(defect.expected());
        assertThat(report.differenceCount()).isEqualTo(defect.expected().size());
        for (Difference difference : defect.expected()) {
            assertThat(report.toString()).contains("  " + difference + "\n");
        }
    }

    @Test
    void allDefectsTogetherAreEachNamed() throws SQLException {
        String db = cloneBase();
        List<Difference> expected = new ArrayList<>();
        defects().filter(d -> !d.aloneOnly()).forEach(d -> {
            POSTGRES.replica().execute(db, d.sql());
            expected.addAll(d.expected());
        });

        ComparisonReport report = ReplicaComparison.between(POSTGRES.primary(), POSTGRES.replica()).database(db).run();

        assertThat(report.differences()).as("%s", report).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(report.equal()).isFalse();
        assertThat(report.toString())
                .startsWith("replica = primary: DIFFERENT, " + expected.size() + " differences (7 tables compared, 6 differ; "
                        + "2 sequences compared, 2 differ)\n")
                .contains("public.all_types: 5 rows on both, DIFFERENT (11 differences); replica-only columns not compared: applied_at\n")
                .contains("public.big: 5000 rows on both, DIFFERENT (3 differences)\n")
                .contains("public.gone: 2 rows on the primary, table missing on the replica\n")
                .contains("public.keyless: 4 rows on both, DIFFERENT (2 differences)\n")
                .contains("public.events: 20 rows on the primary, 19 on the replica, DIFFERENT (1 difference)\n")
                .contains("\"Odd\".\"Mixed Case\": 2 rows on both, DIFFERENT (1 difference)\n")
                .contains("  public.all_types: column differs at (id)=(1), column \"bp\": primary 'ab   ', replica 'a    '\n")
                .contains("  public.all_types: column differs at (id)=(3), column \"t\": primary '', replica NULL\n")
                .contains("  public.keyless: row missing on the replica: (1,dup)\n")
                .contains("  public.big: row extra on the replica: (id)=(5001), row (5001,v5001)\n")
                .contains("  \"Odd\".\"Mixed Case\": column missing on the replica: \"Value\"\n")
                .contains("  public.counter: sequence differs: primary last_value=2, is_called=true, replica last_value=1, is_called=true\n");
    }

    @Test
    void manyDifferencesAreCountedAndTheReportShowsTheFirstFifty() throws SQLException {
        String db = cloneBase();
        POSTGRES.replica().execute(db, "UPDATE public.big SET v = v || '!' WHERE id <= 1500; DELETE FROM public.big WHERE id > 4000");

        ComparisonReport report = ReplicaComparison.between(POSTGRES.primary(), POSTGRES.replica()).database(db)
                .tables("public.big").sequences(false).run();

        assertThat(report.differenceCount()).isEqualTo(2500);
        assertThat(report.differences()).hasSize(DifferenceLog.LISTED);
        assertThat(report.table("public.big")).get().extracting(TableResult::primaryRows, TableResult::replicaRows, TableResult::differences)
                .containsExactly(5000L, 4000L, 2500L);
        assertThat(report.toString()).contains("  ... and 2450 more\n");
        assertThat(report.toString().lines().filter(l -> l.startsWith("  public.big: "))).hasSize(ComparisonReport.SHOWN);
    }

    @Test
    void differentServerDefaultsMakeNoFalseDifferences() throws Exception {
        String db = cloneBase();
        PostgresServer primary = POSTGRES.primary();
        PostgresServer replica = POSTGRES.replica();
        String naive = "SELECT iv::text, ba::text, tstz::text, f8::text, m::text FROM public.all_types WHERE id = 1";
        List<String> before = row(primary, db, naive);
        assertThat(row(replica, db, naive)).as("same rows, same defaults").isEqualTo(before);
        primary.execute("ALTER DATABASE " + db + " SET IntervalStyle = 'iso_8601'; ALTER DATABASE " + db + " SET bytea_output = 'escape';"
                + "ALTER DATABASE " + db + " SET TimeZone = 'Pacific/Chatham'; ALTER DATABASE " + db + " SET DateStyle = 'SQL, DMY';"
                + "ALTER DATABASE " + db + " SET extra_float_digits = -15");
        replica.execute("ALTER SYSTEM SET IntervalStyle = 'sql_standard'");
        replica.execute("ALTER SYSTEM SET bytea_output = 'escape'");
        replica.execute("ALTER SYSTEM SET TimeZone = 'America/St_Johns'");
        replica.execute("ALTER SYSTEM SET extra_float_digits = 0");
        replica.execute("SELECT pg_reload_conf()");
        try {
            awaitSetting(replica, db, "IntervalStyle", "sql_standard");
            assertThat(row(primary, db, "SHOW IntervalStyle")).containsExactly("iso_8601");
            assertThat(row(primary, db, naive)).as("the primary's defaults change its text").isNotEqualTo(before);
            assertThat(row(replica, db, naive)).as("the servers' defaults differ").isNotEqualTo(row(primary, db, naive));

            ComparisonReport report = ReplicaComparison.between(primary, replica).database(db).run();

            assertThat(report.equal()).as("%s", report).isTrue();
        } finally {
            replica.execute("ALTER SYSTEM RESET ALL");
            replica.execute("SELECT pg_reload_conf()");
            awaitSetting(replica, db, "IntervalStyle", "postgres");
        }
    }

    @Test
    void lentConnectionsWithTheirOwnSessionSettingsMakeNoFalseDifferencesAndComeBackAsTheyWere() throws Exception {
        String db = cloneBase();
        POSTGRES.replica().execute(db, "UPDATE public.all_types SET f8 = 0.3 WHERE id = 3");
        try (Connection p = connect(POSTGRES.primary(), db); Connection r = connect(POSTGRES.replica(), db);
             Statement ps = p.createStatement(); Statement rs = r.createStatement()) {
            ps.execute("SET TimeZone = 'Asia/Kathmandu'; SET IntervalStyle = 'sql_standard'; SET extra_float_digits = 0;"
                    + " SET bytea_output = 'escape'");
            rs.execute("SET TimeZone = 'America/Los_Angeles'; SET IntervalStyle = 'iso_8601'; SET extra_float_digits = -1");
            assertThat(value(ps, "SELECT f8::text FROM public.all_types WHERE id = 3"))
                    .as("with these settings a text compare would miss the rounded float")
                    .isEqualTo(value(rs, "SELECT f8::text FROM public.all_types WHERE id = 3"));

            ComparisonReport report = ReplicaComparison.between(p, r).run();

            assertThat(report.differences()).as("%s", report)
                    .containsExactly(column("public.all_types", "(id)=(3)", "f8", "0.30000000000000004", "0.3"));
            assertThat(p.getAutoCommit()).isTrue();
            assertThat(value(ps, "SHOW TimeZone")).isEqualTo("Asia/Kathmandu");
            assertThat(value(ps, "SHOW bytea_output")).isEqualTo("escape");
            assertThat(value(rs, "SHOW IntervalStyle")).isEqualTo("iso_8601");

            p.setAutoCommit(false);
            value(ps, "SELECT 1");
            assertThatThrownBy(() -> ReplicaComparison.between(p, r).run())
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("primary (jdbc:postgresql://")
                    .hasMessageContaining("the connection is inside a transaction");
            p.rollback();
            assertThatThrownBy(() -> ReplicaComparison.between(p, r).database("other")).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aTableThatCannotBeReadIsNamedWithItsServer() throws Exception {
        String db = cloneBase();
        POSTGRES.primary().execute(db, "CREATE ROLE cannot_read LOGIN; REVOKE ALL ON public.big FROM PUBLIC");
        String url = POSTGRES.primary().jdbcUrl(db).replace("user=" + PostgresServer.SUPERUSER, "user=cannot_read");
        try (Connection p = DriverManager.getConnection(url); Connection r = connect(POSTGRES.replica(), db)) {
            assertThatThrownBy(() -> ReplicaComparison.between(p, r).tables("public.big").run())
                    .isInstanceOf(SQLException.class)
                    .hasMessageStartingWith("primary (jdbc:postgresql://")
                    .hasMessageContaining("cannot read the row count and checksum of table public.big")
                    .hasMessageContaining("permission denied for table big");
        } finally {
            POSTGRES.primary().execute(db, "DROP OWNED BY cannot_read; DROP ROLE cannot_read");
        }
        assertThatThrownBy(() -> ReplicaComparison.between(POSTGRES.primary(), POSTGRES.replica()).database(db).tables("public.nope").run())
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("primary 'primary' (127.0.0.1:")
                .hasMessageContaining("no table public.nope");
        assertThatThrownBy(() -> ReplicaComparison.between(POSTGRES.primary(), POSTGRES.replica()).database(db).schemas("nope").run())
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("no schema \"nope\"");
    }

    @Test
    void schemasAndTablesRestrictTheComparison() throws SQLException {
        String db = cloneBase();
        POSTGRES.replica().execute(db, "DROP TABLE public.gone; UPDATE \"Odd\".\"Mixed Case\" SET \"Value\" = 'X'");

        ComparisonReport odd = ReplicaComparison.between(POSTGRES.primary(), POSTGRES.replica()).database(db).schemas("Odd").run();
        ComparisonReport some = ReplicaComparison.between(POSTGRES.primary(), POSTGRES.replica()).database(db)
                .tables("public.big", "\"Odd\".\"Mixed Case\"").sequences(false).run();

        assertThat(odd.tables()).extracting(TableResult::table).containsExactly("\"Odd\".\"Mixed Case\"");
        assertThat(odd.sequences()).isEmpty();
        assertThat(odd.differenceCount()).isEqualTo(2);
        assertThat(some.tables()).extracting(TableResult::table).containsExactly("public.big", "\"Odd\".\"Mixed Case\"");
        assertThat(some.differences()).extracting(Difference::kind).containsExactly(Kind.COLUMN_DIFFERS, Kind.COLUMN_DIFFERS);
    }

    private static Difference column(String table, String key, String column, String primary, String replica) {
        return new Difference(Kind.COLUMN_DIFFERS, table, key, column, primary, replica);
    }

    /** @return a fresh database on both servers, a copy of {@value #BASE} */
    private static String cloneBase() {
        String db = "case_" + DATABASES.incrementAndGet();
        POSTGRES.primary().execute("CREATE DATABASE " + db + " TEMPLATE " + BASE);
        POSTGRES.replica().execute("CREATE DATABASE " + db + " TEMPLATE " + BASE);
        return db;
    }

    private static Connection connect(PostgresServer server, String db) throws SQLException {
        return server.connect(db);
    }

    private static String value(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** @return the first row of a query on a fresh connection (so it starts with the server's defaults) */
    private static List<String> row(PostgresServer server, String db, String sql) throws SQLException {
        try (Connection c = server.connect(db); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            List<String> values = new ArrayList<>();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                values.add(rs.getString(i));
            }
            return values;
        }
    }

    /** New sessions see a reloaded configuration once the postmaster has read it: wait for that, 10 s at most. */
    private static void awaitSetting(PostgresServer server, String db, String setting, String value) {
        io.rdmarepl.testsupport.Await.until(setting + " is " + value + " on " + server, Duration.ofSeconds(10),
                () -> row(server, db, "SHOW " + setting), List.of(value)::equals);
    }
}
