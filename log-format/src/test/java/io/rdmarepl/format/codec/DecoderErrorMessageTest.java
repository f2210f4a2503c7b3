package io.rdmarepl.format.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.format.FormatException;
import io.rdmarepl.format.RecordKind;
import io.rdmarepl.format.record.RecordMaterializer;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The decoder refuses unknown versions and bad records with messages naming record, offset and field. */
class DecoderErrorMessageTest {
    private final RecordEncoder encoder = new RecordEncoder();
    private final RecordDecoder decoder = new RecordDecoder();
    private final ByteBuffer buffer = ByteBuffer.allocate(4096);

    @Test
    void shouldRefuseUnknownVersion() {
        int length = encoder.encodeBegin(buffer, 16, 100, 1, 2, 3);
        buffer.put(16, (byte) 2);

        assertThatThrownBy(() -> decoder.decode(buffer, 16, length, new RecordMaterializer()))
            .isInstanceOf(FormatException.class)
            .hasMessage("unsupported record version 2 at offset 16: this decoder reads version 1");
    }

    @Test
    void shouldNameColumnWhoseLengthOverrunsItsTuple() {
        RowWriter row = encoder.startInsert(buffer, 48, 4000, 7).putInt4(1).putInt8(2).putBool(true);
        int textLengthAt = 48 + 8 + 4 + 8 + 5 + 9 + 2 + 1;
        int length = row.putText("twelve bytes").finish();
        assertThat(buffer.getInt(textLengthAt)).isEqualTo(Integer.reverseBytes(12));
        buffer.putInt(textLengthAt, Integer.reverseBytes(900));

        assertThatThrownBy(() -> decoder.decode(buffer, 48, length, new RecordMaterializer()))
            .isInstanceOf(FormatException.class)
            .hasMessage("truncated Insert record at offset 48: new tuple column 3 (text) length 900 exceeds remaining 12 bytes")
            .satisfies(e -> assertThat(((FormatException) e).kind()).isEqualTo(RecordKind.INSERT))
            .satisfies(e -> assertThat(((FormatException) e).recordOffset()).isEqualTo(48));
    }

    @Test
    void shouldRefuseRecordLongerThanItsRegion() {
        int length = encoder.encodeCommit(buffer, 0, 100, 1, 2, 3, 4);

        assertThatThrownBy(() -> decoder.decode(buffer, 0, length - 1, new RecordMaterializer()))
            .isInstanceOf(FormatException.class)
            .hasMessage("truncated Commit record at offset 0: body length 32 exceeds remaining 31 bytes");
    }

    @Test
    void shouldRefuseUnknownKindAndShortHeader() {
        int length = encoder.encodeHeartbeat(buffer, 0, 100, 1, 2);
        assertThatThrownBy(() -> decoder.decode(buffer, 0, 5, new RecordMaterializer()))
            .hasMessage("truncated record at offset 0: header needs 8 bytes, 5 remain");
        buffer.put(1, (byte) 99);
        assertThatThrownBy(() -> decoder.decode(buffer, 0, length, new RecordMaterializer()))
            .hasMessage("corrupt record at offset 0: unknown record kind 99");
    }

    @Test
    void shouldNameArrayElementWithUnknownTag() {
        int arrayAt = 8 + 4 + 8;
        int length = encoder.startInsert(buffer, 0, 4000, 7).startArray(io.rdmarepl.format.ValueTag.INT2, 2)
            .putInt2((short) 1).putInt2((short) 2).endArray().finish();
        int secondElementAt = arrayAt + ValueDescriptor.ARRAY_DIMENSION_TABLE_OFFSET + 8 + 3;
        buffer.put(secondElementAt, (byte) 77);

        assertThatThrownBy(() -> decoder.decode(buffer, 0, length, new RecordMaterializer()))
            .hasMessage("corrupt Insert record at offset 0: new tuple column 0 (array) element 1 has unknown value tag 77");
    }

    @Test
    void shouldRefuseMalformedUtf8WhenTextIsRead() {
        int length = encoder.startInsert(buffer, 0, 4000, 7).putText("ab").finish();
        buffer.put(length - 1, (byte) 0xC3);

        assertThatThrownBy(() -> decoder.decode(buffer, 0, length, new RecordMaterializer()))
            .isInstanceOf(FormatException.class)
            .hasMessageContaining("new tuple column 0 (text) has malformed UTF-8");
    }
}
