package io.rdmarepl.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.format.codec.RecordDecoder;
import io.rdmarepl.format.codec.RecordEncoder;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.ChangeRecords;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** Encode, decode, materialise: every record kind and value type comes back equal, byte order and buffer kind notwithstanding. */
class RecordRoundTripTest {
    private static final int CAPACITY = 4 << 20;
    private static final byte SENTINEL = (byte) 0xA5;

    private final RecordEncoder encoder = new RecordEncoder();
    private final RecordDecoder decoder = new RecordDecoder();
    private final ByteBuffer heap = ByteBuffer.allocate(CAPACITY);
    private final ByteBuffer direct = ByteBuffer.allocateDirect(CAPACITY);

    @Property(tries = 1500)
    void shouldRoundTripEveryRecord(@ForAll("records") ChangeRecord record, @ForAll @IntRange(max = 100) int offset,
                                    @ForAll boolean useDirect, @ForAll boolean bigEndian) {
        ByteBuffer buffer = (useDirect ? direct : heap).order(bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        fill(buffer, SENTINEL);

        int length = ChangeRecords.encode(encoder, record, buffer, offset, CAPACITY - offset);
        ChangeRecord decoded = ChangeRecords.decode(decoder, buffer, offset, length);

        assertThat(decoded).isEqualTo(record);
        assertThat(buffer.get(offset + length)).isEqualTo(SENTINEL);
        assertThat(offset == 0 || buffer.get(offset - 1) == SENTINEL).isTrue();
        assertThat(buffer.position()).isZero();
        assertThat(buffer.limit()).isEqualTo(CAPACITY);
    }

    @Property(tries = 300)
    void shouldWalkRecordsPackedBackToBack(@ForAll("smallRecordLists") List<ChangeRecord> records) {
        int position = 0;
        for (ChangeRecord record : records) {
            position += ChangeRecords.encode(encoder, record, heap, position, CAPACITY - position);
        }
        int end = position;
        position = 0;
        for (ChangeRecord record : records) {
            ChangeRecord decoded = ChangeRecords.decode(decoder, heap, position, end - position);
            assertThat(decoded).isEqualTo(record);
            position += decoder.decode(heap, position, end - position, new io.rdmarepl.format.codec.RecordHandler() { });
        }
        assertThat(position).isEqualTo(end);
    }

    @Property(tries = 200)
    void shouldEncodeTheSameBytesWhateverTheCallerByteOrder(@ForAll("records") ChangeRecord record) {
        int length = ChangeRecords.encode(encoder, record, heap.order(ByteOrder.LITTLE_ENDIAN), 0, CAPACITY);
        byte[] little = Arrays.copyOf(heap.array(), length);
        int bigLength = ChangeRecords.encode(encoder, record, direct.order(ByteOrder.BIG_ENDIAN), 0, CAPACITY);
        byte[] big = new byte[bigLength];
        direct.get(0, big);
        assertThat(big).isEqualTo(little);
    }

    @Provide
    Arbitrary<ChangeRecord> records() {
        return Generators.records();
    }

    @Provide
    Arbitrary<List<ChangeRecord>> smallRecordLists() {
        return Generators.smallRecords().list().ofMaxSize(12);
    }

    private static void fill(ByteBuffer buffer, byte value) {
        byte[] chunk = new byte[64 * 1024];
        Arrays.fill(chunk, value);
        for (int at = 0; at < buffer.capacity(); at += chunk.length) {
            buffer.put(at, chunk, 0, Math.min(chunk.length, buffer.capacity() - at));
        }
    }
}
