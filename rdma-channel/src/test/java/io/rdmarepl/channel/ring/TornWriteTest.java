package io.rdmarepl.channel.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The writer's pushes copy each range in shuffled chunks, as a NIC may place the bytes of an RDMA
 * WRITE, while the reader polls concurrently: it must never deliver a partial or corrupt frame,
 * and must see every frame exactly once.
 */
class TornWriteTest {
    private static final int FRAMES = 200_000;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void readerNeverDeliversPartialFramesWhileBytesArriveOutOfOrder() throws Exception {
        MemoryChannel channel = new MemoryChannel(1 << 16, 1, 20261202L, true, 48, 20);
        RingReader reader = new RingReader(channel.readerEnd());
        RingWriter writer = new RingWriter(channel.writerEnd());
        int max = Math.min(writer.maxPayloadLength(), 700);
        AtomicReference<String> failure = new AtomicReference<>();
        long[] nextExpected = {0};

        Thread readerThread = new Thread(() -> {
            FrameHandler check = (type, flags, buffer, offset, length) -> {
                long number = nextExpected[0]++;
                String problem = Payloads.check(buffer, offset, length, number, Payloads.lengthOf(number, max));
                if (problem != null && failure.get() == null) {
                    failure.set(problem);
                }
            };
            while (nextExpected[0] < FRAMES && failure.get() == null) {
                if (reader.poll(check, 64) == 0) {
                    Thread.onSpinWait();
                }
            }
        }, "torn-reader");
        readerThread.start();

        for (long number = 0; number < FRAMES && failure.get() == null; ) {
            int length = Payloads.lengthOf(number, max);
            int offset = writer.tryClaim(9, length);
            if (offset >= 0) {
                Payloads.fill(writer.buffer(), offset, length, number);
                writer.commit();
                number++;
                if (number % 4 == 0) {
                    writer.publish();
                }
            } else {
                writer.publish();
                Thread.onSpinWait();
            }
        }
        writer.publish();
        readerThread.join(TimeUnit.SECONDS.toMillis(100));

        assertThat(failure.get()).isNull();
        assertThat(nextExpected[0]).isEqualTo(FRAMES);
        assertThat(reader.framesRead()).isEqualTo(FRAMES);
        assertThat(reader.incompleteReads())
                .as("the reader must have met frames still arriving, or this test proved nothing")
                .isGreaterThan(0);
    }
}
