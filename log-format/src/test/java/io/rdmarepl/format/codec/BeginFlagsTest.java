package io.rdmarepl.format.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.format.FormatException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** Begin is the one fixed record with a flag: a snapshot chunk; every other bit is refused both ways. */
class BeginFlagsTest {
    private final RecordEncoder encoder = new RecordEncoder();
    private final RecordDecoder decoder = new RecordDecoder();
    private final ByteBuffer buffer = ByteBuffer.allocate(256);

    @Test
    void shouldCarrySnapshotChunkFlagToHandler() {
        int length = encoder.encodeBegin(buffer, 8, 100, 0, 0x16B3748L, 99, TransactionDescriptor.BEGIN_SNAPSHOT_CHUNK_FLAG);
        long[] seen = new long[4];
        decoder.decode(buffer, 8, length, new RecordHandler() {
            @Override
            public void onBegin(long txId, long commitLsn, long commitTimeUs, int flags) {
                seen[0] = txId;
                seen[1] = commitLsn;
                seen[2] = commitTimeUs;
                seen[3] = flags;
            }
        });
        assertThat(seen).containsExactly(0, 0x16B3748L, 99, TransactionDescriptor.BEGIN_SNAPSHOT_CHUNK_FLAG);
    }

    @Test
    void shouldReachThreeArgumentHandlersWithoutFlags() {
        int length = encoder.encodeBegin(buffer, 0, 100, 5, 6, 7, TransactionDescriptor.BEGIN_SNAPSHOT_CHUNK_FLAG);
        long[] seen = new long[1];
        decoder.decode(buffer, 0, length, new RecordHandler() {
            @Override
            public void onBegin(long txId, long commitLsn, long commitTimeUs) {
                seen[0] = commitLsn;
            }
        });
        assertThat(seen[0]).isEqualTo(6);
    }

    @Test
    void shouldRefuseUndefinedBeginFlags() {
        assertThatThrownBy(() -> encoder.encodeBegin(buffer, 0, 100, 1, 2, 3, 0x2))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("Begin flags 2");
        int length = encoder.encodeBegin(buffer, 0, 100, 1, 2, 3);
        buffer.putShort(RecordDescriptor.FLAGS_OFFSET, Short.reverseBytes((short) 0x3)); // the header is little-endian
        assertThatThrownBy(() -> decoder.decode(buffer, 0, length, new RecordHandler() { }))
            .isInstanceOf(FormatException.class)
            .hasMessage("corrupt Begin record at offset 0: unknown flags 2");
    }
}
