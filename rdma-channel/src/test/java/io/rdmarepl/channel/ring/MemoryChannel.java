package io.rdmarepl.channel.ring;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;

/**
 * A channel in this process's memory whose writer stages frames privately and pushes each range
 * by copying its bytes in shuffled chunks, as a NIC may place an RDMA WRITE: the seam through
 * which the torn-write tests inject disorder. With {@code chunked == false} push copies in order.
 */
final class MemoryChannel {
    final ByteBuffer ring;
    final ByteBuffer feedback;
    final ByteBuffer writerImage;
    private final Random random;
    private final boolean chunked;
    private final int maxChunk;
    private final int spinsBetweenChunks;
    private int[] starts = new int[64];
    private int[] lengths = new int[64];

    MemoryChannel(int capacity, int epoch, long seed, boolean chunked, int maxChunk, int spinsBetweenChunks) {
        int regionLength = RingDescriptor.regionLength(capacity);
        this.ring = ByteBuffer.allocateDirect(regionLength).order(ByteOrder.LITTLE_ENDIAN);
        this.feedback = ByteBuffer.allocateDirect(FeedbackDescriptor.REGION_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        RingHeader.initialise(ring, capacity, epoch, 42L);
        this.writerImage = ByteBuffer.allocateDirect(regionLength).order(ByteOrder.LITTLE_ENDIAN);
        writerImage.put(0, ring, 0, RingDescriptor.DATA_OFFSET);
        this.random = new Random(seed);
        this.chunked = chunked;
        this.maxChunk = maxChunk;
        this.spinsBetweenChunks = spinsBetweenChunks;
    }

    static MemoryChannel direct(int capacity, int epoch) {
        return new MemoryChannel(capacity, epoch, 0, false, 0, 0);
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
                return "memory:reader";
            }

            @Override
            public void close() {
            }
        };
    }

    /** A writer on the reader's side of the same memory (image = ring), e.g. a successor on the standby's host. */
    WriterEnd readerSideWriterEnd() {
        return new Direct(ring, feedback);
    }

    private record Direct(ByteBuffer ring, ByteBuffer feedback) implements WriterEnd {
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
            return "memory:successor";
        }

        @Override
        public void close() {
        }
    }

    /** A writer whose image is the shared ring (chunked == false) or a private copy pushed in shuffled chunks. */
    WriterEnd writerEnd() {
        ByteBuffer image = chunked ? writerImage : ring;
        return new WriterEnd() {
            @Override
            public ByteBuffer ringImage() {
                return image;
            }

            @Override
            public void push(int regionOffset, int length) {
                if (chunked) {
                    copyShuffled(regionOffset, length);
                }
            }

            @Override
            public ByteBuffer feedbackRegion() {
                return feedback;
            }

            @Override
            public String uri() {
                return "memory:writer";
            }

            @Override
            public void close() {
            }
        };
    }

    private void copyShuffled(int offset, int length) {
        int count = 0;
        for (int at = 0; at < length; count++) {
            if (count == starts.length) {
                starts = java.util.Arrays.copyOf(starts, count * 2);
                lengths = java.util.Arrays.copyOf(lengths, count * 2);
            }
            int chunk = Math.min(length - at, 1 + random.nextInt(maxChunk));
            starts[count] = offset + at;
            lengths[count] = chunk;
            at += chunk;
        }
        for (int i = count - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int s = starts[i];
            starts[i] = starts[j];
            starts[j] = s;
            int l = lengths[i];
            lengths[i] = lengths[j];
            lengths[j] = l;
        }
        for (int i = 0; i < count; i++) {
            ring.put(starts[i], writerImage, starts[i], lengths[i]);
            for (int s = 0; s < spinsBetweenChunks; s++) {
                Thread.onSpinWait();
            }
        }
    }
}
