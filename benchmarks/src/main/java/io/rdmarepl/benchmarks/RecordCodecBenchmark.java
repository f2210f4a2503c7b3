package io.rdmarepl.benchmarks;

import io.rdmarepl.format.NumericSpecial;
import io.rdmarepl.format.OldTupleKind;
import io.rdmarepl.format.codec.RecordDecoder;
import io.rdmarepl.format.codec.RecordEncoder;
import io.rdmarepl.format.codec.RecordHandler;
import io.rdmarepl.format.codec.RowChangeView;
import io.rdmarepl.format.codec.TupleView;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Encode and decode of a typical ten-column row update (the shipper's and the applier's share of
 * the hot path). Run with {@code -prof gc}: {@code gc.alloc.rate.norm} must be 0 B/op.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RecordCodecBenchmark {
    private final RecordEncoder encoder = new RecordEncoder();
    private final RecordDecoder decoder = new RecordDecoder();
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(4096);
    private final StringBuilder name = new StringBuilder("customer name \u00e9");
    private final Reader reader = new Reader();
    private int counter;
    private int encodedLength = encode();

    @Benchmark
    public int encode() {
        int i = counter++;
        return encoder.startUpdate(buffer, 0, 4096, 16384, OldTupleKind.KEY)
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
    }

    @Benchmark
    public long decode() {
        decoder.decode(buffer, 0, encodedLength, reader);
        return reader.checksum;
    }

    /** Reads every column the way the applier does: primitives, and text into a reused builder. */
    private static final class Reader implements RecordHandler {
        private final StringBuilder text = new StringBuilder(64);
        long checksum;

        @Override
        public void onUpdate(RowChangeView update) {
            TupleView row = update.newTuple();
            checksum += update.oldTuple().int4(0) + row.int4(0) + row.int8(1);
            text.setLength(0);
            row.copyText(2, text);
            checksum += text.length();
            checksum += row.numericSpecial(3) == NumericSpecial.NONE ? row.numericUnscaledLong(3) : 0;
            checksum += row.timestampTz(4) + (row.bool(5) ? 1 : 0) + (long) row.float8(6);
            checksum += row.uuidMostSignificantBits(7) + (row.isNull(8) ? 1 : 0) + row.date(9);
        }
    }
}
