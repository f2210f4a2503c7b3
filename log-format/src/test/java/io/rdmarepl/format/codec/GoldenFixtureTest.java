package io.rdmarepl.format.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.format.NumericSpecial;
import io.rdmarepl.format.OldTupleKind;
import io.rdmarepl.format.PgInfinity;
import io.rdmarepl.format.ValueTag;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.ChangeRecords;
import io.rdmarepl.format.record.Column;
import io.rdmarepl.format.record.Tuple;
import io.rdmarepl.format.record.Value;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Pins the wire format: each record must encode to exactly the bytes in {@code golden/NAME.hex} and
 * decode back from them. An intended format change bumps {@link RecordDescriptor#VERSION} and rewrites the
 * fixtures with {@code -Dgolden.update=true} (then read the new hex against the Descriptor docs).
 */
class GoldenFixtureTest {
    static Map<String, ChangeRecord> fixtures() {
        Map<String, ChangeRecord> fixtures = new LinkedHashMap<>();
        fixtures.put("begin", new ChangeRecord.Begin(0x1234, 0x16_B374_D848L, 1_700_000_000_000_000L));
        fixtures.put("commit", new ChangeRecord.Commit(0x1234, 0x16_B374_D848L, 0x16_B374_D900L, 1_700_000_000_000_001L));
        fixtures.put("heartbeat", new ChangeRecord.Heartbeat(1_700_000_000_000_002L, 0x16_B374_D900L));
        fixtures.put("relation", new ChangeRecord.Relation(16384, "public", "accounts", 'd', List.of(
            new Column("id", 23, "int4", -1, true), new Column("name", 1043, "varchar", 68, false))));
        fixtures.put("insert", new ChangeRecord.Insert(16384, Tuple.of(new Value.Int4(42), new Value.Text("h\u00e9llo"),
            Value.NULL, Value.UNCHANGED_TOAST, new Value.Numeric(new BigDecimal("123.45")), new Value.Bool(true))));
        fixtures.put("update-old-key", new ChangeRecord.Update(16384, OldTupleKind.KEY, Tuple.of(new Value.Int4(42)),
            Tuple.of(new Value.Int4(43), new Value.TimestampTz(PgInfinity.TIMESTAMP_POSITIVE),
                new Value.Inet(false, new byte[] {(byte) 192, (byte) 168, 1, 5}, 24))));
        fixtures.put("delete-full", new ChangeRecord.Delete(16384, OldTupleKind.FULL, Tuple.of(new Value.Int4(42),
            Value.Array.of(ValueTag.INT4, List.of(new Value.Int4(1), Value.NULL)))));
        fixtures.put("truncate", new ChangeRecord.Truncate(true, false, List.of(16384, 16385)));
        fixtures.put("sequence", new ChangeRecord.Sequence("public", "order_no", 4711L, true, 1_700_000_000_000_003L));
        fixtures.put("insert-types", new ChangeRecord.Insert(7, Tuple.of(new Value.Float8(-0.0),
            new Value.Date(PgInfinity.DATE_NEGATIVE), new Value.Uuid(0x0123456789ABCDEFL, 0xFEDCBA9876543210L),
            new Value.Interval(14, 3, 4_000_005L), new Value.Macaddr(false, 0x08002B010203L),
            new Value.TextFallback(600, "(1,2)"), new Value.Json("{}"), new Value.NonFiniteNumeric(NumericSpecial.NAN),
            new Value.TimeTz(3_600_000_000L, 7200), new Value.Int2((short) -2), new Value.Bytea(new byte[] {0, 1}))));
        return fixtures;
    }

    @TestFactory
    List<DynamicTest> shouldEncodeExactlyTheGoldenBytes() {
        RecordEncoder encoder = new RecordEncoder();
        RecordDecoder decoder = new RecordDecoder();
        return fixtures().entrySet().stream().map(fixture -> DynamicTest.dynamicTest(fixture.getKey(), () -> {
            ByteBuffer buffer = ByteBuffer.allocate(4096);
            int length = ChangeRecords.encode(encoder, fixture.getValue(), buffer, 0, buffer.capacity());
            String actual = HexFormat.of().formatHex(buffer.array(), 0, length);
            if (Boolean.getBoolean("golden.update")) {
                write(fixture.getKey(), actual);
            }
            String expected = read(fixture.getKey());
            assertThat(actual).as("encoding of %s", fixture.getKey()).isEqualTo(expected);

            byte[] golden = HexFormat.of().parseHex(expected);
            assertThat(ChangeRecords.decode(decoder, ByteBuffer.wrap(golden), 0, golden.length))
                .isEqualTo(fixture.getValue());
        })).toList();
    }

    private static String read(String name) throws IOException {
        try (InputStream in = GoldenFixtureTest.class.getResourceAsStream("/golden/" + name + ".hex")) {
            assertThat(in).as("fixture golden/%s.hex", name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII).replaceAll("#[^\n]*|\\s", "");
        }
    }

    private static void write(String name, String hex) throws IOException {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < hex.length(); i += 32) {
            lines.append(hex, i, Math.min(hex.length(), i + 32)).append('\n');
        }
        Files.writeString(Path.of("src/test/resources/golden", name + ".hex"), lines);
    }
}
