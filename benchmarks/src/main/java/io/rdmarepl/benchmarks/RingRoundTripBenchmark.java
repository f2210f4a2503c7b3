package io.rdmarepl.benchmarks;

import io.rdmarepl.channel.ring.FrameHandler;
import io.rdmarepl.channel.ring.RingReader;
import io.rdmarepl.channel.ring.RingWriter;
import io.rdmarepl.channel.shm.ShmReaderEnd;
import io.rdmarepl.channel.shm.ShmWriterEnd;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One thread writes a frame (claim, fill, commit, publish) and reads it back (poll): the cost of
 * the ring's hot path without cross-core traffic. Run with {@code -prof gc}:
 * {@code gc.alloc.rate.norm} must be 0 B/op.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RingRoundTripBenchmark {
    @Param({"256", "4096"})
    int frameSize;

    private ShmReaderEnd readerEnd;
    private ShmWriterEnd writerEnd;
    private RingWriter writer;
    private RingReader reader;
    private ByteBuffer payload;
    private int payloadLength;
    private Blackhole sink;
    private final FrameHandler handler = (type, flags, buffer, offset, length) -> sink.consume(buffer.getLong(offset));

    @Setup
    public void setUp(Blackhole blackhole) {
        readerEnd = ShmRings.create(1 << 20);
        writerEnd = ShmWriterEnd.attach(readerEnd.path());
        writer = new RingWriter(writerEnd);
        reader = new RingReader(readerEnd);
        payloadLength = frameSize - 24;
        payload = ByteBuffer.allocateDirect(payloadLength);
        sink = blackhole;
    }

    @TearDown
    public void tearDown() {
        writerEnd.close();
        readerEnd.close();
    }

    @Benchmark
    public int writeThenRead() {
        if (!writer.tryWrite(1, payload, 0, payloadLength)) {
            throw new IllegalStateException("ring full");
        }
        writer.publish();
        return reader.poll(handler, 1);
    }
}
