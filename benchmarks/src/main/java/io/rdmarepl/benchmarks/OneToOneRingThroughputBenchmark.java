package io.rdmarepl.benchmarks;

import io.rdmarepl.channel.ring.FrameHandler;
import io.rdmarepl.channel.ring.RingReader;
import io.rdmarepl.channel.ring.RingWriter;
import io.rdmarepl.channel.shm.ShmReaderEnd;
import io.rdmarepl.channel.shm.ShmWriterEnd;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One writer thread and one reader thread on one ring (asymmetric JMH group):
 *
 * <pre>
 *   write thread: tryClaim, fill, commit, publish per 32 ---> [ ring 8 MiB ] ---> read thread: poll(64)
 * </pre>
 *
 * Read the {@code framesWritten} and {@code framesRead} counters (frames per second); the primary
 * score counts calls, including back-pressured claims and empty polls. Run with {@code -prof gc}
 * for allocation per op.
 */
@State(Scope.Group)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class OneToOneRingThroughputBenchmark {
    @Param({"256"})
    int frameSize;

    private ShmReaderEnd readerEnd;
    private ShmWriterEnd writerEnd;
    private RingWriter writer;
    private RingReader reader;
    private ByteBuffer payload;
    private int payloadLength;
    private int unpublished;
    private final FrameHandler handler = (type, flags, buffer, offset, length) -> { };

    @Setup
    public void setUp() {
        readerEnd = ShmRings.create(8 << 20);
        writerEnd = ShmWriterEnd.attach(readerEnd.path());
        writer = new RingWriter(writerEnd);
        reader = new RingReader(readerEnd);
        payloadLength = frameSize - 24;
        payload = ByteBuffer.allocateDirect(payloadLength);
    }

    /** Frames moved, per thread: JMH reports them per second next to the call rate. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Frames {
        public long framesWritten;
        public long framesRead;
    }

    @TearDown
    public void tearDown() {
        writerEnd.close();
        readerEnd.close();
    }

    @Benchmark
    @Group("ring")
    @GroupThreads(1)
    public boolean write(Frames frames) {
        boolean written = writer.tryWrite(1, payload, 0, payloadLength);
        if (written) {
            frames.framesWritten++;
        }
        if (!written || ++unpublished == 32) {
            unpublished = 0;
            writer.publish();
        }
        return written;
    }

    @Benchmark
    @Group("ring")
    @GroupThreads(1)
    public int read(Frames frames) {
        int read = reader.poll(handler, 64);
        frames.framesRead += read;
        return read;
    }
}
