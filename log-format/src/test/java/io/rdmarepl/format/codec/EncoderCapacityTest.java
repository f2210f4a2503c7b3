package io.rdmarepl.format.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.format.Generators;
import io.rdmarepl.format.OldTupleKind;
import io.rdmarepl.format.RecordCapacityException;
import io.rdmarepl.format.ValueTag;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.ChangeRecords;
import java.nio.ByteBuffer;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The encoder refuses a region that is too small, names the field, and never writes past maxLength. */
class EncoderCapacityTest {
    private static final byte SENTINEL = (byte) 0x5A;
    private final RecordEncoder encoder = new RecordEncoder();

    @Test
    void shouldRejectBeginWhenInsufficientSpace() {
        ByteBuffer buffer = sentinelBuffer(64);

        assertThatThrownBy(() -> encoder.encodeBegin(buffer, 8, 31, 1, 2, 3))
            .isInstanceOf(RecordCapacityException.class)
            .hasMessage("Begin record at offset 8 does not fit in maxLength 31: the whole record needs 32 bytes, 31 remain");
        assertUntouchedFrom(buffer, 8);
    }

    @Test
    void shouldNameTheColumnThatDoesNotFit() {
        ByteBuffer buffer = sentinelBuffer(256);
        RowWriter row = encoder.startUpdate(buffer, 0, 50, 5, OldTupleKind.KEY).putInt4(1).startNewTuple().putInt8(2);

        assertThatThrownBy(() -> row.putText("more than ten bytes"))
            .isInstanceOf(RecordCapacityException.class)
            .hasMessage("Update record at offset 0 does not fit in maxLength 50: new tuple column 1 (text) needs 24 bytes, 8 remain");
        assertUntouchedFrom(buffer, 50);
    }

    @Test
    void shouldNameTheArrayElementThatDoesNotFit() {
        ByteBuffer buffer = sentinelBuffer(256);
        RowWriter row = encoder.startInsert(buffer, 0, 48, 5).startArray(ValueTag.INT8, 3).putInt8(1);

        assertThatThrownBy(() -> row.putInt8(2))
            .isInstanceOf(RecordCapacityException.class)
            .hasMessageContaining("new tuple column 0 (array) element 1 (int8) needs 9 bytes, 4 remain");
        assertUntouchedFrom(buffer, 48);
    }

    @Test
    void shouldRejectMisuseOfTheRowWriter() {
        ByteBuffer buffer = ByteBuffer.allocate(256);
        RowWriter update = encoder.startUpdate(buffer, 0, 256, 5, OldTupleKind.FULL).putInt4(1);
        assertThatThrownBy(update::finish).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("Update record in its old tuple");
        RowWriter array = encoder.startInsert(buffer, 0, 256, 5).startArray(ValueTag.INT4, 2).putInt4(1);
        assertThatThrownBy(() -> array.putText("x")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("array of int4 cannot hold a text element");
        assertThatThrownBy(array::endArray).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("1 of 2 elements put");
        assertThatThrownBy(() -> encoder.startInsert(buffer, 0, 256, 5).putText("\uD800x"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unpaired surrogate at index 0");
        assertThatThrownBy(() -> encoder.startDelete(buffer, 0, 256, 5, OldTupleKind.NONE))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Property(tries = 500)
    void shouldNeverWritePastMaxLength(@ForAll("records") ChangeRecord record, @ForAll("fractions") double fraction) {
        ByteBuffer roomy = ByteBuffer.allocate(1 << 20);
        int needed = ChangeRecords.encode(encoder, record, roomy, 0, roomy.capacity());
        int maxLength = (int) (fraction * needed);
        ByteBuffer buffer = sentinelBuffer(needed + 16);

        assertThatThrownBy(() -> ChangeRecords.encode(encoder, record, buffer, 3, maxLength))
            .isInstanceOf(RecordCapacityException.class);
        assertUntouchedFrom(buffer, 3 + maxLength);
        assertThat(buffer.get(0)).isEqualTo(SENTINEL);

        assertThat(ChangeRecords.encode(encoder, record, buffer, 3, needed)).isEqualTo(needed);
    }

    @Provide
    Arbitrary<ChangeRecord> records() {
        return Generators.smallRecords();
    }

    @Provide
    Arbitrary<Double> fractions() {
        return Arbitraries.doubles().between(0, true, 1, false);
    }

    private static ByteBuffer sentinelBuffer(int capacity) {
        byte[] bytes = new byte[capacity];
        Arrays.fill(bytes, SENTINEL);
        return ByteBuffer.wrap(bytes);
    }

    private static void assertUntouchedFrom(ByteBuffer buffer, int from) {
        for (int i = from; i < buffer.capacity(); i++) {
            assertThat(buffer.get(i)).as("byte %d past maxLength", i).isEqualTo(SENTINEL);
        }
    }
}
