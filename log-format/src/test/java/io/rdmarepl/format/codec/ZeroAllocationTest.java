package io.rdmarepl.format.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.format.NumericSpecial;
import io.rdmarepl.format.OldTupleKind;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * Steady-state encode + decode of a typical ten-column row allocates nothing. Measured with the JVM's
 * per-thread allocation counter after a warm-up: an allocation property, not a timing test.
 */
class ZeroAllocationTest {
    private static final int WARM_UP = 100_000;
    private static final int MEASURED = 100_000;

    private final RecordEncoder encoder = new RecordEncoder();
    private final RecordDecoder decoder = new RecordDecoder();
    private final ByteBuffer ring = ByteBuffer.allocateDirect(64 * 1024);
    private final ReadingHandler handler = new ReadingHandler();
    private final StringBuilder name = new StringBuilder("customer name \u00e9\uD83D\uDE00");

    @Test
    void shouldEncodeAndDecodeTypicalRowWithoutAllocating() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < WARM_UP; i++) {
            roundTrip(i);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < MEASURED; i++) {
            roundTrip(i);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertThat(handler.checksum).isNotZero();
        assertThat((double) allocated / MEASURED).as("bytes allocated per record (total %d)", allocated).isLessThan(1.0);
    }

    @Test
    void shouldEncodeAndDecodeSequenceStateWithoutAllocating() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < WARM_UP; i++) {
            sequenceRoundTrip(i);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < MEASURED; i++) {
            sequenceRoundTrip(i);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertThat(handler.checksum).isNotZero();
        assertThat((double) allocated / MEASURED).as("bytes allocated per record (total %d)", allocated).isLessThan(1.0);
    }

    private void sequenceRoundTrip(int i) {
        int offset = (i & 7) * 1024;
        int length = encoder.encodeSequence(ring, offset, 1024, "sales", name, i * 7L, (i & 1) == 0,
            1_700_000_000_000_000L + i);
        decoder.decode(ring, offset, length, handler);
    }

    private void roundTrip(int i) {
        int offset = (i & 7) * 1024;
        int length = encoder.startUpdate(ring, offset, 1024, 16384, OldTupleKind.KEY)
            .putInt4(i)
            .startNewTuple()
            .putInt4(i)
            .putInt8(i * 31L)
            .putText(name)
            .putNumeric(1234567L + i, 2)
            .putTimestampTz(1_700_000_000_000_000L + i)
            .putBool((i & 1) == 0)
            .putFloat8(i * 0.5)
            .putUuid(i, ~i)
            .putNull()
            .putDate(19_000 + (i & 1023))
            .finish();
        int sequence = encoder.encodeCommit(ring, offset + length, 64, i, i * 8L, i * 8L + 8, 1_700_000_000_000_000L);
        decoder.decode(ring, offset, length, handler);
        decoder.decode(ring, offset + length, sequence, handler);
    }

    /** Reads every column the way the applier would: primitives and text copied into a reused builder. */
    private static final class ReadingHandler implements RecordHandler {
        private final StringBuilder text = new StringBuilder(64);
        long checksum;

        @Override
        public void onUpdate(RowChangeView update) {
            TupleView row = update.newTuple();
            checksum += update.oldTuple().int4(0) + row.int4(0) + row.int8(1);
            text.setLength(0);
            row.copyText(2, text);
            checksum += text.length();
            checksum += row.numericSpecial(3) == NumericSpecial.NONE ? row.numericUnscaledLong(3) + row.numericScale(3) : 0;
            checksum += row.timestampTz(4) + (row.bool(5) ? 1 : 0) + (long) row.float8(6);
            checksum += row.uuidMostSignificantBits(7) + row.uuidLeastSignificantBits(7);
            checksum += row.isNull(8) ? 1 : 0;
            checksum += row.date(9);
        }

        @Override
        public void onSequence(SequenceView sequence) {
            text.setLength(0);
            sequence.copySchema(text);
            sequence.copyName(text);
            checksum += text.length() + sequence.lastValue() + (sequence.isCalled() ? 1 : 0) + sequence.readTimeUs();
        }

        @Override
        public void onCommit(long txId, long commitLsn, long endLsn, long commitTimeUs) {
            checksum += txId + endLsn;
        }
    }
}
