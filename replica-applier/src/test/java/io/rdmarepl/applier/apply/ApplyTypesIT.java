package io.rdmarepl.applier.apply;

import static io.rdmarepl.applier.testing.Records.i4;
import static io.rdmarepl.applier.testing.Records.insert;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.applier.testing.ApplierFixture;
import io.rdmarepl.applier.testing.Sql;
import io.rdmarepl.format.NumericSpecial;
import io.rdmarepl.format.PgInfinity;
import io.rdmarepl.format.ValueTag;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.Column;
import io.rdmarepl.format.record.Value;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Every supported type lands exactly: the primary stores literals, the records carry the same values as
 * the shipper would encode them, and the replica (columns in another order, odd TimeZone, DateStyle and
 * IntervalStyle defaults) must then read back column for column what the primary reads.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ApplyTypesIT {
    /**
     * Started one after the other: PostgresPair's parallel start races in StaleServers.cleanOnce (one thread's
     * clean deletes the other's new instance directory before its owner file exists) when it is the first
     * start in a JVM.
     */
    private static PostgresServer primary;
    private static PostgresServer replica;

    @BeforeAll
    static void startServers() {
        primary = PostgresServer.primary(Durability.FAST);
        replica = PostgresServer.replica(Durability.FAST);
    }

    @AfterAll
    static void stopServers() {
        if (replica != null) {
            replica.close();
        }
        if (primary != null) {
            primary.close();
        }
    }

    private record Col(String name, String type, String literal, Value value) {
    }

    private static final UUID UUID_VALUE = UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");

    private static final List<Col> COLUMNS = List.of(
            new Col("n40", "numeric", "1234567890123456789012345678901234.567890",
                    new Value.Numeric(new BigDecimal("1234567890123456789012345678901234.567890"))),
            new Col("n_small", "numeric(30,15)", "-0.000000000012300", new Value.Numeric(new BigDecimal("-0.000000000012300"))),
            new Col("n_nan", "numeric", "NaN", new Value.NonFiniteNumeric(NumericSpecial.NAN)),
            new Col("n_inf", "numeric", "Infinity", new Value.NonFiniteNumeric(NumericSpecial.POSITIVE_INFINITY)),
            new Col("n_ninf", "numeric", "-Infinity", new Value.NonFiniteNumeric(NumericSpecial.NEGATIVE_INFINITY)),
            new Col("f8_negzero", "float8", "-0", new Value.Float8(-0.0)),
            new Col("f8_max", "float8", "1.7976931348623157e308", new Value.Float8(Double.MAX_VALUE)),
            new Col("f8_third", "float8", "0.3333333333333333", new Value.Float8(1.0 / 3)),
            new Col("f8_nan", "float8", "NaN", new Value.Float8(Double.NaN)),
            new Col("f4_max", "real", "3.4028235e38", new Value.Float4(Float.MAX_VALUE)),
            new Col("f4_ninf", "real", "-Infinity", new Value.Float4(Float.NEGATIVE_INFINITY)),
            new Col("b", "boolean", "true", new Value.Bool(true)),
            new Col("i2", "smallint", "-32768", new Value.Int2(Short.MIN_VALUE)),
            new Col("i8", "bigint", "-9223372036854775808", new Value.Int8(Long.MIN_VALUE)),
            new Col("tstz", "timestamptz", "2024-02-29 23:59:59.123456+00",
                    new Value.TimestampTz(micros(Instant.parse("2024-02-29T23:59:59.123456Z")))),
            new Col("tstz_early", "timestamptz", "1901-12-13 20:45:52.000001+00",
                    new Value.TimestampTz(micros(Instant.parse("1901-12-13T20:45:52.000001Z")))),
            new Col("tstz_inf", "timestamptz", "infinity", new Value.TimestampTz(PgInfinity.TIMESTAMP_POSITIVE)),
            new Col("ts_bc", "timestamp", "0044-03-15 12:00:00.000001 BC",
                    new Value.Timestamp(micros(LocalDateTime.of(-43, 3, 15, 12, 0, 0, 1000).toInstant(ZoneOffset.UTC)))),
            new Col("d", "date", "2024-02-29", new Value.Date((int) LocalDate.of(2024, 2, 29).toEpochDay())),
            new Col("d_bc", "date", "4713-01-01 BC", new Value.Date((int) LocalDate.of(-4712, 1, 1).toEpochDay())),
            new Col("d_ninf", "date", "-infinity", new Value.Date(PgInfinity.DATE_NEGATIVE)),
            new Col("t_end", "time", "24:00:00", new Value.Time(86_400_000_000L)),
            new Col("t", "time", "13:14:15.000016", new Value.Time(LocalTime.of(13, 14, 15, 16_000).toNanoOfDay() / 1000)),
            new Col("ttz", "timetz", "12:34:56.789+05:30",
                    new Value.TimeTz(LocalTime.of(12, 34, 56, 789_000_000).toNanoOfDay() / 1000, 19_800)),
            new Col("iv", "interval", "1 year 2 mons -3 days 04:05:06.000007", new Value.Interval(14, -3, 14_706_000_007L)),
            new Col("iv_neg", "interval", "-00:00:00.000001", new Value.Interval(0, 0, -1)),
            new Col("by", "bytea", "\\x00ff0000", new Value.Bytea(new byte[] {0, -1, 0, 0})),
            new Col("tx", "text", "unicode ✓ 日本語 \"q\" \\ back\ttab 🚀\nline\r\\.\n\\N",
                    new Value.Text("unicode ✓ 日本語 \"q\" \\ back\ttab 🚀\nline\r\\.\n\\N")),
            new Col("vc", "varchar(5)", "ab", new Value.Text("ab")),
            // char(n) and bit(n): a cast to the type without its modifier reads as character(1) / bit(1) and cuts
            new Col("bp", "char(5)", "ab", new Value.Text("ab   ")),
            new Col("bp120", "character(120)", "hello world", new Value.Text(String.format("%-120s", "hello world"))),
            new Col("bits", "bit(8)", "10100001", new Value.TextFallback(1560, "10100001")),
            new Col("vbits", "varbit(16)", "101", new Value.TextFallback(1562, "101")),
            new Col("bparr", "char(3)[]", "{ab,xyz}", Value.Array.of(ValueTag.TEXT,
                    List.of(new Value.Text("ab "), new Value.Text("xyz")))),
            new Col("ch", "\"char\"", "q", new Value.Text("q")),
            new Col("arr", "int[]", "{1,NULL,3}", Value.Array.of(ValueTag.INT4, Arrays.asList(i4(1), Value.NULL, i4(3)))),
            new Col("tarr", "text[]", "{\"a b\",NULL,\"c\\\"d\",\"NULL\",\"\",\"x,y}\"}", Value.Array.of(ValueTag.TEXT,
                    List.of(new Value.Text("a b"), Value.NULL, new Value.Text("c\"d"), new Value.Text("NULL"),
                            new Value.Text(""), new Value.Text("x,y}")))),
            new Col("arr2", "int[]", "[0:1][1:2]={{1,2},{3,4}}",
                    new Value.Array(ValueTag.INT4, new int[] {2, 2}, new int[] {0, 1}, List.of(i4(1), i4(2), i4(3), i4(4)))),
            new Col("empty_arr", "int[]", "{}", Value.Array.of(ValueTag.INT4, List.of())),
            new Col("tsarr", "timestamptz[]", "{\"2024-01-01 00:00:00.5+00\",NULL}", Value.Array.of(ValueTag.TIMESTAMPTZ,
                    Arrays.asList(new Value.TimestampTz(micros(Instant.parse("2024-01-01T00:00:00.5Z"))), Value.NULL))),
            new Col("numarr", "numeric[]", "{1.50,NaN}", Value.Array.of(ValueTag.NUMERIC,
                    List.of(new Value.Numeric(new BigDecimal("1.50")), new Value.NonFiniteNumeric(NumericSpecial.NAN)))),
            new Col("j", "jsonb", "{\"a\": [1, 2.50, null], \"b\": \"ü\"}", new Value.Jsonb("{\"a\": [1, 2.50, null], \"b\": \"ü\"}")),
            new Col("js", "json", "{\"b\":   1,  \"b\": 2}", new Value.Json("{\"b\":   1,  \"b\": 2}")),
            new Col("e", "mood", "happy", new Value.EnumLabel("happy")),
            new Col("ip", "inet", "192.168.0.1/24", new Value.Inet(false, new byte[] {(byte) 192, (byte) 168, 0, 1}, 24)),
            new Col("ip6", "inet", "2001:db8::1", new Value.Inet(false,
                    new byte[] {0x20, 0x01, 0x0d, (byte) 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 128)),
            new Col("net", "cidr", "10.0.0.0/8", new Value.Inet(true, new byte[] {10, 0, 0, 0}, 8)),
            new Col("mac", "macaddr", "08:00:2b:01:02:03", new Value.Macaddr(false, 0x08002b010203L)),
            new Col("mac8", "macaddr8", "08:00:2b:01:02:03:04:05", new Value.Macaddr(true, 0x08002b0102030405L)),
            new Col("u", "uuid", UUID_VALUE.toString(),
                    new Value.Uuid(UUID_VALUE.getMostSignificantBits(), UUID_VALUE.getLeastSignificantBits())),
            new Col("p", "point", "(1.5,-2)", new Value.TextFallback(600, "(1.5,-2)")),
            new Col("tsv", "tsvector", "'a':1 'b':2", new Value.TextFallback(3614, "'a':1 'b':2")));

    /**
     * @param copyMinRows {@code apply.copy.min.rows}: 0 sends every row as an INSERT statement, 1 sends them as COPY
     *                    text; each writes its own table
     */
    @ParameterizedTest(name = "apply.copy.min.rows={0}")
    @ValueSource(strings = {"0", "1"})
    void shouldHoldExactlyThePrimarysValueOfEveryType(String copyMinRows) throws Exception {
        String table = "all_types_" + copyMinRows;
        String primaryColumns = COLUMNS.stream().map(c -> c.name() + " " + c.type()).collect(Collectors.joining(", "));
        List<Col> reversed = new ArrayList<>(COLUMNS);
        Collections.reverse(reversed);
        String replicaColumns = reversed.stream().map(c -> c.name() + " " + c.type()).collect(Collectors.joining(", "));
        primary.execute("DO $$ BEGIN CREATE TYPE mood AS ENUM ('sad', 'happy'); EXCEPTION WHEN duplicate_object THEN END $$;"
                + " CREATE TABLE " + table + " (id int PRIMARY KEY, " + primaryColumns + ")");
        Sql.write(replica, "DO $$ BEGIN CREATE TYPE mood AS ENUM ('sad', 'happy'); EXCEPTION WHEN duplicate_object THEN END $$");
        Sql.write(replica, "CREATE TABLE " + table + " (" + replicaColumns + ", id int PRIMARY KEY)");
        Sql.write(replica, "ALTER DATABASE postgres SET TimeZone = 'Pacific/Chatham'");
        Sql.write(replica, "ALTER DATABASE postgres SET DateStyle = 'SQL, DMY'");
        Sql.write(replica, "ALTER DATABASE postgres SET IntervalStyle = 'sql_standard'");
        Sql.write(replica, "ALTER DATABASE postgres SET extra_float_digits = -10");

        String names = COLUMNS.stream().map(Col::name).collect(Collectors.joining(", "));
        String literals = COLUMNS.stream().map(c -> "'" + c.literal().replace("'", "''") + "'::" + c.type())
                .collect(Collectors.joining(", "));
        primary.execute("INSERT INTO " + table + " (id, " + names + ") VALUES (1, " + literals + ");"
                + " INSERT INTO " + table + " (id) VALUES (2)");

        List<Column> relationColumns = new ArrayList<>();
        relationColumns.add(new Column("id", 23, "int4", -1, true));
        COLUMNS.forEach(c -> relationColumns.add(new Column(c.name(), 0, c.type(), -1, false)));
        List<Value> values = new ArrayList<>();
        List<Value> nulls = new ArrayList<>();
        values.add(i4(1));
        nulls.add(i4(2));
        COLUMNS.forEach(c -> {
            values.add(c.value());
            nulls.add(Value.NULL);
        });
        try (ApplierFixture f = ApplierFixture.start(replica, "types_" + copyMinRows, "apply.copy.min.rows", copyMinRows)) {
            f.feeder().send(new ChangeRecord.Relation(1, "public", table, 'd', relationColumns))
                    .transaction(1, 10, insert(1, values.toArray(Value[]::new)), insert(1, nulls.toArray(Value[]::new)));
            f.awaitApplied(10);
            assertThat(f.registry().get("rdmarepl.applier.copied.rows").counter().count())
                    .as("rows sent as COPY").isEqualTo(copyMinRows.equals("0") ? 0 : 2);
        }

        String select = "SELECT id, " + names + " FROM " + table + " ORDER BY id";
        List<List<String>> expected = Sql.rows(primary, select);
        List<List<String>> actual = Sql.rows(replica, select);
        assertThat(expected).hasSize(2);
        for (int row = 0; row < expected.size(); row++) {
            for (int c = 0; c < expected.get(row).size(); c++) {
                String column = c == 0 ? "id" : COLUMNS.get(c - 1).name();
                assertThat(actual.get(row).get(c)).as("row %d column %s", row + 1, column).isEqualTo(expected.get(row).get(c));
            }
        }
        assertThat(Sql.rows(replica, "SELECT j = '{\"a\": [1, 2.50, null], \"b\": \"ü\"}'::jsonb,"
                + " tstz = '2024-03-01 12:44:59.123456+12:45' FROM " + table + " WHERE id = 1"))
                .containsExactly(List.of("t", "t"));
    }

    private static long micros(Instant instant) {
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
    }
}
