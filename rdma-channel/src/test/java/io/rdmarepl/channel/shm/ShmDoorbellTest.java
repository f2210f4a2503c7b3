package io.rdmarepl.channel.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.channel.ring.FeedbackDescriptor;
import io.rdmarepl.channel.ring.RingDescriptor;
import io.rdmarepl.channel.ring.RingReader;
import io.rdmarepl.channel.ring.RingWriter;
import io.rdmarepl.testsupport.Await;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The doorbells of a shared-memory ring: a reader asleep is woken by the writer's publish, and a writer awaiting
 * feedback by the reader's report. Each sleep here lasts a minute unless rung, so a missed ring fails the test's
 * bound.
 */
class ShmDoorbellTest {
    private static final long ONE_MINUTE_NS = TimeUnit.MINUTES.toNanos(1);
    private static final long TEN_MINUTES_NS = TimeUnit.MINUTES.toNanos(10);

    @Test
    void shouldWakeASleepingReaderWhenTheWriterPublishes() throws Exception {
        Path file = ShmTestFiles.newRingPath("doorbell");
        try (ShmReaderEnd readerEnd = ShmReaderEnd.create(file, 8192, 1, 7L, true);
             ShmWriterEnd writerEnd = ShmWriterEnd.attach(file)) {
            RingReader reader = new RingReader(readerEnd);
            RingWriter writer = new RingWriter(writerEnd);
            assertThat(reader.hasDoorbell()).isTrue();
            assertThat(writerEnd.feedbackRegion().getInt(FeedbackDescriptor.DOORBELL_ADDRESS_OFFSET)).isPositive();
            assertThat(reader.poll((t, f, b, o, l) -> { }, 10)).isZero();

            CompletableFuture<Void> sleeper = CompletableFuture.runAsync(() -> reader.sleepUntilWritten(ONE_MINUTE_NS));
            awaitAsleep(writerEnd);
            write(writer, 1);

            sleeper.get(30, TimeUnit.SECONDS);
            assertThat(writer.doorbellRings()).isEqualTo(1);
            assertThat(reader.poll((t, f, b, o, l) -> { }, 10)).isEqualTo(1);
        }
    }

    @Test
    void shouldTellTheReaderWhileTheWriterSleepsUntilFeedbackAndNotAfterAWriterDiedAsleep() throws Exception {
        Path file = ShmTestFiles.newRingPath("doorbell-awaited");
        try (ShmReaderEnd readerEnd = ShmReaderEnd.create(file, 8192, 1, 7L, true)) {
            RingReader reader = new RingReader(readerEnd);
            try (ShmWriterEnd writerEnd = ShmWriterEnd.attach(file)) {
                RingWriter writer = new RingWriter(writerEnd);
                assertThat(reader.writerAwaitsFeedback()).as("a writer that does not sleep").isFalse();
                writer.feedback().refresh();
                CompletableFuture<Void> sleeper = CompletableFuture.runAsync(() -> writer.sleepUntilFeedback(ONE_MINUTE_NS));
                Await.until("the writer asleep until feedback", Duration.ofSeconds(30), reader::writerAwaitsFeedback, b -> b);
                reader.publishFeedback();
                sleeper.get(30, TimeUnit.SECONDS);
                assertThat(reader.writerAwaitsFeedback()).as("the writer woke").isFalse();

                // a writer killed in its sleep leaves the word odd in the ring
                long word = readerEnd.ringRegion().getLong(RingDescriptor.WRITER_DOORBELL_SLEEP_OFFSET);
                readerEnd.ringRegion().putLong(RingDescriptor.WRITER_DOORBELL_SLEEP_OFFSET, word + 3);
                assertThat(reader.writerAwaitsFeedback()).isTrue();
            }
            try (ShmWriterEnd restarted = ShmWriterEnd.attach(file)) {
                new RingWriter(restarted);
                assertThat(reader.writerAwaitsFeedback()).as("the word a restarted writer found").isFalse();
            }
        }
    }

    @Test
    void shouldRefuseToAnnounceAwaitedFeedbackForAWriterThatSleepsOnItsDoorbell() {
        Path file = ShmTestFiles.newRingPath("announce-refused");
        try (ShmReaderEnd readerEnd = ShmReaderEnd.create(file, 8192, 1, 7L, true);
             ShmWriterEnd writerEnd = ShmWriterEnd.attach(file)) {
            RingReader reader = new RingReader(readerEnd);
            RingWriter writer = new RingWriter(writerEnd);
            assertThatThrownBy(() -> writer.announceFeedbackAwaited(true)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(writerEnd.uri()).hasMessageContaining("sleepUntilFeedback");
            assertThat(reader.writerAwaitsFeedback()).isFalse();
        }
    }

    @Test
    void shouldNotSleepOnAFramePublishedAfterTheLastPoll() {
        Path file = ShmTestFiles.newRingPath("doorbell-race");
        try (ShmReaderEnd readerEnd = ShmReaderEnd.create(file, 8192, 1, 7L, true);
             ShmWriterEnd writerEnd = ShmWriterEnd.attach(file)) {
            RingReader reader = new RingReader(readerEnd);
            RingWriter writer = new RingWriter(writerEnd);
            assertThat(reader.poll((t, f, b, o, l) -> { }, 10)).isZero();
            write(writer, 1); // nobody asleep: no ring, and the reader must still not sleep through it

            reader.sleepUntilWritten(ONE_MINUTE_NS); // returns at once, or the test never ends

            assertThat(writer.doorbellRings()).isZero();
            assertThat(reader.poll((t, f, b, o, l) -> { }, 10)).isEqualTo(1);
        }
    }

    /**
     * A writer publishing at random moments against a reader that polls and sleeps: every frame arrives though
     * each sleep would last a minute, so no publish falls between the reader's last look and its sleep.
     */
    @Test
    void shouldNeverLoseAWakeUpBetweenPollAndSleep() throws Exception {
        Path file = ShmTestFiles.newRingPath("doorbell-stress");
        int frames = 3_000;
        try (ShmReaderEnd readerEnd = ShmReaderEnd.create(file, 1 << 16, 1, 7L, true);
             ShmWriterEnd writerEnd = ShmWriterEnd.attach(file)) {
            RingReader reader = new RingReader(readerEnd);
            RingWriter writer = new RingWriter(writerEnd);
            AtomicLong read = new AtomicLong();
            CompletableFuture<Void> readLoop = CompletableFuture.runAsync(() -> {
                while (read.get() < frames) {
                    int got = reader.poll((t, f, b, o, l) -> read.incrementAndGet(), 64);
                    if (got == 0) {
                        reader.sleepUntilWritten(TEN_MINUTES_NS); // a lost wake-up outlasts the 60 s bound below
                    }
                }
            });
            ByteBuffer payload = ByteBuffer.allocate(Integer.BYTES);
            for (int i = 0; i < frames; i++) {
                while (!writer.tryWrite(1, payload.putInt(0, i), 0, Integer.BYTES)) {
                    writer.feedback().refresh(); // the ring is full: wait for the reader to free room
                }
                writer.publish();
                // pacing, not a wait: a random gap of up to 20 µs lets the reader fall asleep between some frames
                LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(20_000));
            }
            readLoop.get(60, TimeUnit.SECONDS);
            assertThat(read.get()).isEqualTo(frames);
            assertThat(writer.doorbellRings()).isPositive().isLessThanOrEqualTo(frames);
        }
    }

    @Test
    void shouldWakeAWriterAwaitingFeedbackWhenTheReaderReports() throws Exception {
        Path file = ShmTestFiles.newRingPath("doorbell-feedback");
        try (ShmReaderEnd readerEnd = ShmReaderEnd.create(file, 8192, 1, 7L, true);
             ShmWriterEnd writerEnd = ShmWriterEnd.attach(file)) {
            RingReader reader = new RingReader(readerEnd);
            RingWriter writer = new RingWriter(writerEnd);
            assertThat(writer.hasDoorbell()).isTrue();
            write(writer, 1);
            writer.feedback().refresh();

            CompletableFuture<Void> sleeper = CompletableFuture.runAsync(() -> writer.sleepUntilFeedback(ONE_MINUTE_NS));
            awaitWriterAsleep(readerEnd);
            reader.feedback().appliedLsn(42);
            reader.publishFeedback();

            sleeper.get(30, TimeUnit.SECONDS);
            assertThat(writer.feedback().refresh()).isTrue();
            assertThat(writer.feedback().appliedLsn()).isEqualTo(42);
        }
    }

    @Test
    void shouldEndAWritersSleepWhenWokenFromItsOwnProcess() throws Exception {
        Path file = ShmTestFiles.newRingPath("doorbell-wake");
        try (ShmReaderEnd readerEnd = ShmReaderEnd.create(file, 8192, 1, 7L, true);
             ShmWriterEnd writerEnd = ShmWriterEnd.attach(file)) {
            new RingReader(readerEnd);
            RingWriter writer = new RingWriter(writerEnd);
            writer.feedback().refresh();

            CompletableFuture<Void> sleeper = CompletableFuture.runAsync(() -> writer.sleepUntilFeedback(ONE_MINUTE_NS));
            awaitWriterAsleep(readerEnd);
            writer.wakeUp();

            sleeper.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldNotThrowOnTheWritersPathForABadPortInSharedMemory() {
        Path file = ShmTestFiles.newRingPath("doorbell-bad-port");
        try (ShmReaderEnd readerEnd = ShmReaderEnd.create(file, 8192, 1, 7L, true);
             ShmWriterEnd writerEnd = ShmWriterEnd.attach(file)) {
            RingReader reader = new RingReader(readerEnd);
            RingWriter writer = new RingWriter(writerEnd);
            writerEnd.feedbackRegion().putInt(FeedbackDescriptor.DOORBELL_ADDRESS_OFFSET, 70_000);
            writerEnd.feedbackRegion().putLong(FeedbackDescriptor.DOORBELL_SLEEP_OFFSET, 99); // "asleep"

            write(writer, 1); // rings port 70000: logged, not thrown

            assertThat(writer.doorbellRings()).isEqualTo(1);
            assertThat(reader.poll((t, f, b, o, l) -> { }, 10)).isEqualTo(1);
        }
    }

    private static void awaitWriterAsleep(ShmReaderEnd readerEnd) {
        awaitOddSleepWord(readerEnd.ringRegion(), RingDescriptor.WRITER_DOORBELL_SLEEP_OFFSET, "writer");
    }

    private static void write(RingWriter writer, int value) {
        ByteBuffer payload = ByteBuffer.allocate(Integer.BYTES).putInt(0, value);
        assertThat(writer.tryWrite(1, payload, 0, Integer.BYTES)).isTrue();
        writer.publish();
    }

    private static void awaitAsleep(ShmWriterEnd writerEnd) {
        awaitOddSleepWord(writerEnd.feedbackRegion(), FeedbackDescriptor.DOORBELL_SLEEP_OFFSET, "reader");
    }

    private static void awaitOddSleepWord(ByteBuffer region, int offset, String who) {
        Await.until(who + " asleep (its sleep word odd)", Duration.ofSeconds(30), () -> (region.getLong(offset) & 1) != 0);
    }
}
