package io.rdmarepl.channel.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random claim / commit / abort / publish / poll sequences against an {@link ArrayDeque} model:
 * the reader delivers exactly the committed frames, in order, byte for byte, across many laps, and
 * the writer is back-pressured exactly when the model says the ring is full.
 */
class RingModelPropertyTest {

    sealed interface Step permits Write, Abort, Poll, Publish {
    }

    record Write(int length) implements Step {
    }

    record Abort(int length) implements Step {
    }

    record Poll(int limit) implements Step {
    }

    record Publish() implements Step {
    }

    @Property(tries = 200)
    void readerDeliversExactlyTheCommittedFrames(@ForAll("capacities") int capacity,
                                                 @ForAll("steps") List<Step> steps) {
        MemoryChannel channel = MemoryChannel.direct(capacity, 3);
        RingReader reader = new RingReader(channel.readerEnd());
        RingWriter writer = new RingWriter(channel.writerEnd());
        int max = writer.maxPayloadLength();
        ArrayDeque<long[]> model = new ArrayDeque<>();
        long[] next = {0};

        for (Step step : steps) {
            if (step instanceof Write w) {
                int length = w.length() % (max + 1);
                long number = next[0];
                long required = required(writer.position(), length, capacity);
                boolean fits = writer.position() + required <= reader.position() + capacity;
                int offset = writer.tryClaim(5, length);
                assertThat(offset >= 0).as("claim succeeds exactly when the model has room").isEqualTo(fits);
                if (offset >= 0) {
                    Payloads.fill(writer.buffer(), offset, length, number);
                    writer.commit();
                    model.add(new long[] {number, length});
                    next[0]++;
                } else {
                    assertThat(offset).isEqualTo(RingWriter.BACK_PRESSURED);
                }
            } else if (step instanceof Abort a) {
                int length = a.length() % (max + 1);
                int offset = writer.tryClaim(5, length);
                if (offset >= 0) {
                    Payloads.fill(writer.buffer(), offset, length, -1);
                    writer.abort();
                }
            } else if (step instanceof Publish) {
                writer.publish();
                assertThat(reader.producerPosition()).isEqualTo(writer.position());
            } else if (step instanceof Poll p) {
                int delivered = reader.poll((type, flags, buffer, offset, length) -> {
                    long[] expected = model.poll();
                    assertThat(expected).as("a frame the model does not hold").isNotNull();
                    assertThat(type).isEqualTo(5);
                    assertThat(Payloads.check(buffer, offset, length, expected[0], (int) expected[1])).isNull();
                }, p.limit());
                assertThat(delivered).isLessThanOrEqualTo(p.limit());
            }
        }
        reader.poll((type, flags, buffer, offset, length) -> {
            long[] expected = model.poll();
            assertThat(expected).isNotNull();
            assertThat(Payloads.check(buffer, offset, length, expected[0], (int) expected[1])).isNull();
        }, Integer.MAX_VALUE);
        assertThat(model).as("frames committed but never delivered").isEmpty();
        assertThat(reader.position()).isEqualTo(writer.position());
        assertThat(reader.incompleteReads()).isZero();
    }

    @Provide
    Arbitrary<Integer> capacities() {
        return Arbitraries.of(4096, 8192, 16384);
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<Step> write = Arbitraries.integers().between(0, 5000).map(Write::new);
        Arbitrary<Step> smallWrite = Arbitraries.integers().between(0, 64).map(Write::new);
        Arbitrary<Step> abort = Arbitraries.integers().between(0, 5000).map(Abort::new);
        Arbitrary<Step> poll = Arbitraries.integers().between(1, 20).map(Poll::new);
        Arbitrary<Step> publish = Arbitraries.just(new Publish());
        Arbitrary<Step> step = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, write), net.jqwik.api.Tuple.of(6, smallWrite),
                net.jqwik.api.Tuple.of(1, abort), net.jqwik.api.Tuple.of(4, poll), net.jqwik.api.Tuple.of(2, publish));
        return step.list().ofMinSize(50).ofMaxSize(600);
    }

    /** Bytes a claim consumes, including the rest of the lap when the frame does not fit before the end. */
    private static long required(long position, int length, int capacity) {
        int frameLength = FrameDescriptor.alignedFrameLength(length);
        int tail = capacity - ((int) position & (capacity - 1));
        return tail < frameLength ? tail + frameLength : frameLength;
    }
}
