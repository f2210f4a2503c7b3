package io.rdmarepl.format.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.format.RecordCapacityException;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.RecordMaterializer;
import io.rdmarepl.format.record.Value;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link RowWriter#putTextFallback(int, ByteBuffer, int, int)}: UTF-8 bytes copied as they are, without allocating. */
class TextFallbackBytesTest {
    private static final int INTERVAL_OID = 1186;
    private static final int BIT_OID = 1560;

    private final RecordEncoder encoder = new RecordEncoder();
    private final RecordDecoder decoder = new RecordDecoder();
    private final ByteBuffer out = ByteBuffer.allocateDirect(4096);

    @Test
    void shouldCopyTheBytesBetweenIndexAndLengthWhateverTheSourcePositionAndOrder() {
        String interval = "178000000 years 11 mons 2147483647 days 2562047788:00:54.775807";
        byte[] utf8 = ("xx" + interval + "|10100101|caf\u00e9 \uD83D\uDE00yy").getBytes(StandardCharsets.UTF_8);
        ByteBuffer source = ByteBuffer.wrap(utf8); // big-endian heap buffer
        source.position(7).limit(utf8.length);
        int intervalLength = interval.length();
        int emojiStart = 2 + intervalLength + 10;

        int length = encoder.startInsert(out, 16, 2048, 16384)
            .putTextFallback(INTERVAL_OID, source, 2, intervalLength)
            .putTextFallback(BIT_OID, source, 2 + intervalLength + 1, 8)
            .putTextFallback(25, source, emojiStart, utf8.length - 2 - emojiStart)
            .putTextFallback(25, source, 0, 0)
            .finish();

        assertThat(source.position()).isEqualTo(7);
        ChangeRecord.Insert insert = (ChangeRecord.Insert) decode(16, length);
        assertThat(insert.newTuple().values()).containsExactly(
            new Value.TextFallback(INTERVAL_OID, interval),
            new Value.TextFallback(BIT_OID, "10100101"),
            new Value.TextFallback(25, "caf\u00e9 \uD83D\uDE00"),
            new Value.TextFallback(25, ""));
    }

    @Test
    void shouldRefuseAValueThatDoesNotFitNamingTheColumnAndWriteNothingPastMaxLength() {
        ByteBuffer source = ByteBuffer.allocateDirect(100);
        ByteBuffer guarded = ByteBuffer.allocate(200);
        guarded.put(60, (byte) 0x5A);

        assertThatThrownBy(() -> encoder.startInsert(guarded, 0, 60, 16384)
            .putInt4(1)
            .putTextFallback(BIT_OID, source, 0, 100))
            .isInstanceOf(RecordCapacityException.class)
            .hasMessageContaining("new tuple column 1 (text fallback)");
        assertThat(guarded.get(60)).isEqualTo((byte) 0x5A);
    }

    @Test
    void shouldRefuseARegionOutsideTheSource() {
        ByteBuffer source = ByteBuffer.allocate(10);
        assertThatThrownBy(() -> encoder.startInsert(out, 0, 1024, 1).putTextFallback(25, source, 4, 7))
            .isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void shouldNotAllocate() {
        ByteBuffer source = ByteBuffer.allocateDirect(256);
        source.put(0, "2562047788:00:54.775807 and some more text".getBytes(StandardCharsets.US_ASCII));
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long checksum = 0;
        for (int i = 0; i < 100_000; i++) {
            checksum += encodeRow(source, i);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 100_000; i++) {
            checksum += encodeRow(source, i);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertThat(checksum).isPositive();
        assertThat(allocated / 100_000.0).as("bytes allocated per row (total %d)", allocated).isLessThan(1.0);
    }

    private int encodeRow(ByteBuffer source, int i) {
        return encoder.startInsert(out, (i & 7) * 256, 256, 16384)
            .putInt8(i)
            .putTextFallback(INTERVAL_OID, source, i & 15, 23)
            .finish();
    }

    private ChangeRecord decode(int offset, int length) {
        RecordMaterializer materializer = new RecordMaterializer();
        decoder.decode(out, offset, length, materializer);
        return materializer.last();
    }
}
