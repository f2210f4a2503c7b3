package io.rdmarepl.format.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.format.FormatException;
import io.rdmarepl.format.RecordCapacityException;
import io.rdmarepl.format.RecordKind;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.ChangeRecords;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class CopyChunkRecordTest {
    private static final String TEXT = "1\tab\\tc\t\\N\n2\t\\\\x00ff\té\n";
    private final RecordEncoder encoder = new RecordEncoder();
    private final RecordDecoder decoder = new RecordDecoder();

    private static ChangeRecord.CopyChunk chunk() {
        return new ChangeRecord.CopyChunk(16_384, List.of(0, 2, 1), 2, TEXT.getBytes(StandardCharsets.UTF_8));
    }

    private ByteBuffer encoded(int at) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(512).order(ByteOrder.BIG_ENDIAN); // the codec ignores the order
        int length = ChangeRecords.encode(encoder, chunk(), buffer, at, 512 - at);
        buffer.limit(at + length);
        return buffer;
    }

    @Test
    void shouldRoundTripWithTheTextByteForByteAtTheDocumentedOffsets() {
        ByteBuffer buffer = encoded(40);
        int length = buffer.limit() - 40;
        byte[] text = TEXT.getBytes(StandardCharsets.UTF_8);
        assertThat(length).isEqualTo(CopyChunkDescriptor.copyChunkLength(3, text.length)).isEqualTo(24 + 2 * 3 + text.length);
        assertThat(ChangeRecords.decode(decoder, buffer, 40, length)).isEqualTo(chunk());
        ByteBuffer le = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        assertThat(le.get(40 + RecordDescriptor.KIND_OFFSET)).isEqualTo((byte) 10);
        assertThat(le.getInt(40 + 8)).isEqualTo(16_384);
        assertThat(le.getInt(40 + 12)).isEqualTo(2);
        assertThat(le.getInt(40 + 16)).isEqualTo(3);
        assertThat(le.getShort(40 + 22)).isEqualTo((short) 2);
        assertThat(le.getInt(40 + 26)).isEqualTo(text.length);
        assertThat(le.get(40 + 30)).isEqualTo((byte) '1');
    }

    @Test
    void shouldHandTheViewTheTextWhereItLies() {
        ByteBuffer buffer = encoded(0);
        int[] seen = new int[3];
        decoder.decode(buffer, 0, buffer.limit(), new RecordHandler() {
            @Override
            public void onCopyChunk(CopyChunkView view) {
                seen[0] = view.textOffset();
                seen[1] = view.textLength();
                seen[2] = view.column(1);
            }
        });
        assertThat(seen).containsExactly(30, TEXT.getBytes(StandardCharsets.UTF_8).length, 2);
    }

    @Test
    void shouldRefuseEveryTruncationWithAClearMessage() {
        ByteBuffer buffer = encoded(0);
        int length = buffer.limit();
        for (int cut = RecordDescriptor.HEADER_LENGTH; cut < length; cut++) {
            int at = cut;
            // the header's body length still claims the whole record: a frame cut short
            assertThatThrownBy(() -> decoder.decode(buffer, 0, at, new RecordHandler() { }))
                .as("cut at %d", cut)
                .isInstanceOf(FormatException.class)
                .hasMessageContaining("truncated CopyChunk record at offset 0")
                .satisfies(e -> assertThat(((FormatException) e).kind()).isEqualTo(RecordKind.COPY_CHUNK));
        }
    }

    @Test
    void shouldRefuseABodyThatDoesNotAddUp() {
        ByteBuffer buffer = encoded(0).order(ByteOrder.LITTLE_ENDIAN);
        int length = buffer.limit();
        int textLengthAt = CopyChunkDescriptor.textLengthOffset(3);
        int text = buffer.getInt(textLengthAt);

        buffer.putInt(textLengthAt, text - 1);
        assertThatThrownBy(() -> decoder.decode(buffer, 0, length, new RecordHandler() { }))
            .isInstanceOf(FormatException.class).hasMessageContaining("corrupt CopyChunk record at offset 0: body has 1 bytes after the text");
        buffer.putInt(textLengthAt, text + 1);
        assertThatThrownBy(() -> decoder.decode(buffer, 0, length, new RecordHandler() { }))
            .isInstanceOf(FormatException.class).hasMessageContaining("truncated CopyChunk record at offset 0: text length");
        buffer.putInt(textLengthAt, text);

        buffer.put(length - 1, (byte) 'x'); // the last row cut in two
        assertThatThrownBy(() -> decoder.decode(buffer, 0, length, new RecordHandler() { }))
            .isInstanceOf(FormatException.class).hasMessageContaining("does not end with a row's newline");
        buffer.put(length - 1, (byte) '\n');

        buffer.putInt(CopyChunkDescriptor.ROW_COUNT_OFFSET, 0);
        assertThatThrownBy(() -> decoder.decode(buffer, 0, length, new RecordHandler() { }))
            .isInstanceOf(FormatException.class).hasMessageContaining("rowCount 0 with");
        buffer.putInt(CopyChunkDescriptor.ROW_COUNT_OFFSET, -2);
        assertThatThrownBy(() -> decoder.decode(buffer, 0, length, new RecordHandler() { }))
            .isInstanceOf(FormatException.class).hasMessageContaining("negative rowCount -2");
        buffer.putInt(CopyChunkDescriptor.ROW_COUNT_OFFSET, 2);

        buffer.putInt(CopyChunkDescriptor.COLUMN_COUNT_OFFSET, 1 << 20);
        assertThatThrownBy(() -> decoder.decode(buffer, 0, length, new RecordHandler() { }))
            .isInstanceOf(FormatException.class).hasMessageContaining("columnCount 1048576 is outside");
        buffer.putInt(CopyChunkDescriptor.COLUMN_COUNT_OFFSET, 3);

        buffer.putShort(RecordDescriptor.FLAGS_OFFSET, (short) 1);
        assertThatThrownBy(() -> decoder.decode(buffer, 0, length, new RecordHandler() { }))
            .isInstanceOf(FormatException.class).hasMessageContaining("corrupt CopyChunk record at offset 0: unknown flags 1");
        buffer.putShort(RecordDescriptor.FLAGS_OFFSET, (short) 0);

        assertThat(ChangeRecords.decode(decoder, buffer, 0, length)).isEqualTo(chunk()); // every field restored
    }

    @Test
    void shouldNameAKindNewerThanThisDecoder() {
        ByteBuffer buffer = encoded(0);
        buffer.put(RecordDescriptor.KIND_OFFSET, (byte) 11);
        assertThatThrownBy(() -> decoder.decode(buffer, 0, buffer.limit(), new RecordHandler() { }))
            .isInstanceOf(FormatException.class)
            .hasMessageContaining("unknown record kind 11 (this decoder knows kinds 1-10; a newer shipper wrote it");
    }

    @Test
    void shouldRefuseToWriteWhatADecoderWouldRefuse() {
        ByteBuffer buffer = ByteBuffer.allocate(256);
        ByteBuffer text = ByteBuffer.wrap("1\t2".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> encoder.encodeCopyChunk(buffer, 0, 256, 1, new int[] {0, 1}, 2, 1, text, 0, 3))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("newline");
        assertThatThrownBy(() -> encoder.encodeCopyChunk(buffer, 0, 256, 1, new int[] {0, 1}, 2, 0, text, 0, 3))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0 rows with 3 bytes");
        assertThatThrownBy(() -> encoder.encodeCopyChunk(buffer, 0, 20, 1, new int[] {0, 1}, 2, 1,
            ByteBuffer.wrap("1\t2\n".getBytes(StandardCharsets.UTF_8)), 0, 4))
            .isInstanceOf(RecordCapacityException.class).hasMessageContaining("CopyChunk record at offset 0 does not fit");
    }
}
