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
            .hasMessage("corrupt record at offset 0: unknown record kind 99 (this decoder knows kinds 1-10; a newer shipper"
                + " wrote it: upgrade the applier)");
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

    @Test
    void shouldRefuseTruncatedSequenceNamingTheField() {
        int length = encoder.encodeSequence(buffer, 24, 200, "public", "order_no", 42, true, 7);
        // the name's 8 bytes are the record's last: cut 3 of them off
        assertThatThrownBy(() -> decoder.decode(buffer, 24, length - 3, new RecordMaterializer()))
            .isInstanceOf(FormatException.class)
            .hasMessage("truncated Sequence record at offset 24: body length 38 exceeds remaining 35 bytes");
        // a body length that agrees with the cut: the name's own length no longer fits
        buffer.putInt(24 + RecordDescriptor.BODY_LENGTH_OFFSET, Integer.reverseBytes(35));
        assertThatThrownBy(() -> decoder.decode(buffer, 24, length - 3, new RecordMaterializer()))
            .isInstanceOf(FormatException.class)
            .hasMessage("truncated Sequence record at offset 24: name length 8 exceeds remaining 5 bytes")
            .satisfies(e -> assertThat(((FormatException) e).kind()).isEqualTo(RecordKind.SEQUENCE));
        // shorter than its fixed fields
        buffer.putInt(24 + RecordDescriptor.BODY_LENGTH_OFFSET, Integer.reverseBytes(10));
        assertThatThrownBy(() -> decoder.decode(buffer, 24, 18, new RecordMaterializer()))
            .hasMessage("truncated Sequence record at offset 24: lastValue and readTimeUs needs 16 bytes, 10 remain");
    }

    @Test
    void shouldRefuseCorruptSequence() {
        int length = encoder.encodeSequence(buffer, 0, 200, "public", "order_no", 42, false, 7);
        int schemaLengthAt = SequenceDescriptor.SCHEMA_OFFSET;
        buffer.putInt(schemaLengthAt, Integer.reverseBytes(-1));
        assertThatThrownBy(() -> decoder.decode(buffer, 0, length, new RecordMaterializer()))
            .hasMessage("corrupt Sequence record at offset 0: schema has negative length -1");
        buffer.putInt(schemaLengthAt, Integer.reverseBytes(2)); // "pu", then "blic" would be read as the name's length
        assertThatThrownBy(() -> decoder.decode(buffer, 0, length, new RecordMaterializer()))
            .isInstanceOf(FormatException.class)
            .hasMessageStartingWith("truncated Sequence record at offset 0: name length ");

        int again = encoder.encodeSequence(buffer, 0, 200, "public", "order_no", 42, false, 7);
        buffer.putShort(RecordDescriptor.FLAGS_OFFSET, Short.reverseBytes((short) 0x4));
        assertThatThrownBy(() -> decoder.decode(buffer, 0, again, new RecordMaterializer()))
            .hasMessage("corrupt Sequence record at offset 0: unknown flags 4");

        encoder.encodeSequence(buffer, 0, 200, "public", "order_no", 42, false, 7);
        buffer.put(again - 1, (byte) 0xC3); // the name's last byte starts a two-byte sequence that never ends
        assertThatThrownBy(() -> decoder.decode(buffer, 0, again, new RecordMaterializer()))
            .isInstanceOf(FormatException.class)
            .hasMessageStartingWith("corrupt Sequence record at offset 0: malformed UTF-8 at offset ");

        encoder.encodeSequence(buffer, 0, 200, "public", "order_no", 42, false, 7);
        buffer.putInt(RecordDescriptor.BODY_LENGTH_OFFSET, Integer.reverseBytes(again - RecordDescriptor.HEADER_LENGTH + 2));
        assertThatThrownBy(() -> decoder.decode(buffer, 0, again + 2, new RecordMaterializer()))
            .hasMessage("corrupt Sequence record at offset 0: body has 2 bytes after the name");
    }
}
