package io.rdmarepl.channel.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A fast writer and a slow reader: the writer waits, nothing is lost or overwritten. */
class BackPressureTest {
    private static final int FRAMES = 20_000;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void slowReaderReceivesEveryFrameIntactWhileWriterIsBackPressured() throws Exception {
        MemoryChannel channel = MemoryChannel.direct(8192, 1);
        RingReader reader = new RingReader(channel.readerEnd());
        RingWriter writer = new RingWriter(channel.writerEnd());
        int max = 300;
        AtomicReference<String> failure = new AtomicReference<>();
        long[] received = {0};

        Thread slowReader = new Thread(() -> {
            while (received[0] < FRAMES && failure.get() == null) {
                reader.poll((type, flags, buffer, offset, length) -> {
                    long number = received[0]++;
                    String problem = Payloads.check(buffer, offset, length, number, Payloads.lengthOf(number, max));
                    if (problem != null) {
                        failure.compareAndSet(null, problem);
                    }
                }, 3);
                LockSupport.parkNanos(20_000); // a slow reader, the test's subject: not a wait for something
            }
        }, "slow-reader");
        slowReader.start();

        long backPressuredClaims = 0;
        for (long number = 0; number < FRAMES && failure.get() == null; ) {
            int length = Payloads.lengthOf(number, max);
            int offset = writer.tryClaim(3, length);
            if (offset == RingWriter.BACK_PRESSURED) {
                backPressuredClaims++;
                Thread.onSpinWait();
                continue;
            }
            Payloads.fill(writer.buffer(), offset, length, number++);
            writer.commit();
            writer.publish();
        }
        slowReader.join(TimeUnit.SECONDS.toMillis(50));

        assertThat(failure.get()).isNull();
        assertThat(received[0]).isEqualTo(FRAMES);
        assertThat(backPressuredClaims).isGreaterThan(0);
        assertThat(writer.backPressureEvents()).isEqualTo(backPressuredClaims);
    }
}
