package io.rdmarepl.benchmarks;

import io.rdmarepl.channel.ring.FeedbackDescriptor;
import io.rdmarepl.channel.ring.ReaderEnd;
import io.rdmarepl.channel.ring.RingDescriptor;
import io.rdmarepl.channel.ring.RingHeader;
import io.rdmarepl.channel.ring.WriterEnd;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** A ring in this process's direct memory, shared by a writer and a reader (the shm transport without the file). */
final class HeapRing {
    final ByteBuffer ring;
    final ByteBuffer feedback;

    HeapRing(int capacity) {
        ring = ByteBuffer.allocateDirect(RingDescriptor.regionLength(capacity)).order(ByteOrder.LITTLE_ENDIAN);
        feedback = ByteBuffer.allocateDirect(FeedbackDescriptor.REGION_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        RingHeader.initialise(ring, capacity, 1, 1L);
    }

    WriterEnd writerEnd() {
        return new WriterEnd() {
            @Override
            public ByteBuffer ringImage() {
                return ring;
            }

            @Override
            public void push(int regionOffset, int length) {
            }

            @Override
            public ByteBuffer feedbackRegion() {
                return feedback;
            }

            @Override
            public String uri() {
                return "memory";
            }

            @Override
            public void close() {
            }
        };
    }

    ReaderEnd readerEnd() {
        return new ReaderEnd() {
            @Override
            public ByteBuffer ringRegion() {
                return ring;
            }

            @Override
            public ByteBuffer feedbackImage() {
                return feedback;
            }

            @Override
            public void pushFeedback() {
            }

            @Override
            public String uri() {
                return "memory";
            }

            @Override
            public void close() {
            }
        };
    }
}
