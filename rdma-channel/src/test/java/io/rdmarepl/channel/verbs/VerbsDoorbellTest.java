package io.rdmarepl.channel.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.channel.ring.FeedbackDescriptor;
import io.rdmarepl.channel.ring.RingHeader;
import io.rdmarepl.channel.ring.RingReader;
import io.rdmarepl.channel.ring.RingWriter;
import io.rdmarepl.testsupport.Await;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The doorbell of a verbs ring, over softrdma: a sleeping reader is woken by the writer's RDMA WRITE WITH IMMEDIATE,
 * rung only while the reader's announced sleep word says it sleeps. Each sleep here lasts a minute unless rung, so
 * a missed ring fails the test's bound.
 */
class VerbsDoorbellTest {
    private static final long ONE_MINUTE_NS = TimeUnit.MINUTES.toNanos(1);

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldWakeASleepingReaderWhenTheWriterPublishes() throws Exception {
        try (VerbsReaderEnd readerEnd = SoftRdmaChannels.reader(8192, 1);
             VerbsWriterEnd writerEnd = SoftRdmaChannels.writer(readerEnd)) {
            RingReader reader = new RingReader(readerEnd);
            RingWriter writer = new RingWriter(writerEnd);
            assertThat(reader.hasDoorbell()).isTrue();
            Await.until("the reader's doorbell address in the writer's region", Duration.ofSeconds(30),
                    () -> writerEnd.feedbackRegion().getInt(FeedbackDescriptor.DOORBELL_ADDRESS_OFFSET) == ImmediateDoorbell.ADDRESS);
            assertThat(reader.poll((t, f, b, o, l) -> { }, 10)).isZero();

            long lastWord = 0;
            for (int value = 1; value <= 3; value++) {
                CompletableFuture<Void> sleeper = CompletableFuture.runAsync(() -> reader.sleepUntilWritten(ONE_MINUTE_NS));
                // the last sleep's word stays in the writer's region (a wake-up is not announced): wait for the new one
                lastWord = awaitAnnouncedSleep(writerEnd, lastWord);
                write(writer, value);

                sleeper.get(30, TimeUnit.SECONDS);
                assertThat(writerEnd.bellsRung()).as("rings posted (writer's decisions to ring %d, skipped %d, failure %s, word %d)",
                        writer.doorbellRings(), writerEnd.bellsSkipped(), writerEnd.failure(), lastWord).isEqualTo(value);
                assertThat(reader.poll((t, f, b, o, l) -> { }, 10)).isEqualTo(1);
            }
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldNotRingAReaderThatAnnouncedNoDoorbell() {
        try (VerbsReaderEnd readerEnd = SoftRdmaChannels.reader(8192, 1);
             VerbsWriterEnd writerEnd = SoftRdmaChannels.writer(readerEnd)) {
            RingReader reader = new RingReader(readerEnd);
            RingWriter writer = new RingWriter(writerEnd);
            assertThat(reader.poll((t, f, b, o, l) -> { }, 10)).isZero();
            reader.sleepUntilWritten(1_000_000);
            awaitAnnouncedSleep(writerEnd, 0);
            // as a reader of an older release leaves it: no receives posted, a ring would find none
            writerEnd.feedbackRegion().putInt(FeedbackDescriptor.DOORBELL_ADDRESS_OFFSET, 0);

            write(writer, 1);

            assertThat(writer.doorbellRings()).isEqualTo(1);
            assertThat(writerEnd.bellsRung()).isZero();
            assertThat(writerEnd.failure()).isNull();
        }
    }

    /**
     * A writer publishing at random moments against a reader that polls and sleeps a millisecond at most: every frame
     * arrives, and the writer stays healthy, the reader's receives never running out however the rings fall.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldDeliverEveryFrameWhileTheReaderSleepsBetweenThem() throws Exception {
        int frames = 2_000;
        try (VerbsReaderEnd readerEnd = SoftRdmaChannels.reader(1 << 16, 1);
             VerbsWriterEnd writerEnd = SoftRdmaChannels.writer(readerEnd)) {
            RingReader reader = new RingReader(readerEnd);
            RingWriter writer = new RingWriter(writerEnd);
            AtomicLong read = new AtomicLong();
            CompletableFuture<Void> readLoop = CompletableFuture.runAsync(() -> {
                while (read.get() < frames) {
                    int got = reader.poll((t, f, b, o, l) -> { }, 64);
                    if (got == 0) {
                        reader.sleepUntilWritten(TimeUnit.MILLISECONDS.toNanos(1));
                    }
                    read.addAndGet(got);
                }
            });
            for (int i = 0; i < frames; i++) {
                write(writer, i);
                if (i % 7 == 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(java.util.concurrent.ThreadLocalRandom.current().nextLong(1_000, 300_000));
                }
            }
            readLoop.get(90, TimeUnit.SECONDS);
            assertThat(read.get()).isEqualTo(frames);
            assertThat(writerEnd.failure()).isNull();
            assertThat(writerEnd.bellsRung()).isPositive();
        }
    }

    /**
     * A reader whose every sleep is cut short by a frame published just before it (so it never waits on the doorbell)
     * while the writer rings each word it announces: the rings must not use up the receives posted for them (on
     * hardware, a ring with none posted stalls the writer's queue pair; over softrdma it fails it).
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldNotRunOutOfReceivesWhenSleepsNeverWait() {
        try (VerbsReaderEnd readerEnd = SoftRdmaChannels.reader(1 << 16, 1);
             VerbsWriterEnd writerEnd = SoftRdmaChannels.writer(readerEnd)) {
            RingReader reader = new RingReader(readerEnd);
            RingWriter writer = new RingWriter(writerEnd);
            assertThat(reader.poll((t, f, b, o, l) -> { }, 10)).isZero();
            reader.sleepUntilWritten(1_000_000);
            long word = awaitAnnouncedSleep(writerEnd, 0);
            int rounds = VerbsConnection.DOORBELL_RECEIVES * 3;
            for (int i = 1; i <= rounds; i++) {
                write(writer, i); // the announced word is odd and un-rung: it rings
                awaitLanded(readerEnd, writer);
                assertThat(reader.poll((t, f, b, o, l) -> { }, 10)).isEqualTo(1);
                write(writer, -i); // after the poll, before the sleep: the sleep returns at once
                awaitLanded(readerEnd, writer);
                reader.sleepUntilWritten(ONE_MINUTE_NS); // a new word (frames were read), announced, never waited on
                assertThat(reader.poll((t, f, b, o, l) -> { }, 10)).isEqualTo(1);
                word = awaitAnnouncedSleep(writerEnd, word);
            }
            assertThat(writerEnd.bellsRung()).isGreaterThanOrEqualTo(rounds);
            assertThat(writerEnd.failure()).isNull();
        }
    }

    /** A writer that connects after the reader took its word (which it keeps while its sleeps time out) is told it. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldAnnounceAKeptWordToAWriterThatConnectedSince() throws Exception {
        try (VerbsReaderEnd readerEnd = SoftRdmaChannels.reader(8192, 1)) {
            RingReader reader = new RingReader(readerEnd);
            long word;
            try (VerbsWriterEnd first = SoftRdmaChannels.writer(readerEnd)) {
                // a sleep taken before the reader serves a writer announces nothing (the next sleep would): this
                // trial sleeps once
                Await.until("the reader serving the first writer", Duration.ofSeconds(30), () -> readerEnd.hasWriter());
                assertThat(reader.poll((t, f, b, o, l) -> { }, 10)).isZero();
                reader.sleepUntilWritten(1_000_000);
                word = awaitAnnouncedSleep(first, 0);
            }
            try (VerbsWriterEnd second = SoftRdmaChannels.writer(readerEnd)) {
                Await.until("the reader serving the second writer", Duration.ofSeconds(30), () -> readerEnd.hasWriter());
                CompletableFuture<Void> sleeper = CompletableFuture.runAsync(() -> {
                    reader.sleepUntilWritten(1_000_000); // the same word: nothing rang it, nothing was read
                    reader.sleepUntilWritten(ONE_MINUTE_NS);
                });
                long kept = word;
                Await.until("the kept word " + kept + " in the second writer's region", Duration.ofSeconds(30),
                        () -> second.feedbackRegion().getLong(FeedbackDescriptor.DOORBELL_SLEEP_OFFSET) == (kept | 1));
                write(new RingWriter(second), 1);

                sleeper.get(30, TimeUnit.SECONDS);
                assertThat(second.bellsRung()).isEqualTo(1);
            }
        }
    }

    /**
     * Over verbs the writer has no doorbell and polls for feedback; it says it awaits through the sleep word all the
     * same, sent at once rather than with the next publish, and the reader's feedback meanwhile rings nothing.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldTellTheReaderAtOnceWhileAWriterWithoutADoorbellAwaitsFeedback() {
        try (VerbsReaderEnd readerEnd = SoftRdmaChannels.reader(8192, 1);
             VerbsWriterEnd writerEnd = SoftRdmaChannels.writer(readerEnd)) {
            RingReader reader = new RingReader(readerEnd);
            RingWriter writer = new RingWriter(writerEnd);
            assertThat(writer.hasDoorbell()).as("a verbs writer polls for feedback").isFalse();
            assertThat(reader.writerAwaitsFeedback()).isFalse();
            for (int round = 1; round <= 2; round++) {
                writer.announceFeedbackAwaited(true);
                writer.announceFeedbackAwaited(true); // said already: nothing changes
                assertThat(writer.announcesFeedbackAwaited()).isTrue();
                Await.until("the writer's word, odd, in the reader's ring (round " + round + ")", Duration.ofSeconds(30),
                        reader::writerAwaitsFeedback, awaits -> awaits);
                reader.publishFeedback();
                writer.announceFeedbackAwaited(false);
                Await.until("the writer's word, even again (round " + round + ")", Duration.ofSeconds(30),
                        reader::writerAwaitsFeedback, awaits -> !awaits);
            }
            write(writer, 1);
            awaitLanded(readerEnd, writer);
            assertThat(writerEnd.failure()).isNull();
            assertThat(reader.poll((t, f, b, o, l) -> { }, 10)).isEqualTo(1);
        }
    }

    /** A verbs writer that died polling for feedback leaves its word odd; the next one's blank image cannot see it. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldClearTheWordAWriterThatDiedAwaitingFeedbackLeft() {
        try (VerbsReaderEnd readerEnd = SoftRdmaChannels.reader(8192, 1)) {
            RingReader reader = new RingReader(readerEnd);
            try (VerbsWriterEnd died = SoftRdmaChannels.writer(readerEnd)) {
                new RingWriter(died).announceFeedbackAwaited(true);
                Await.until("the first writer's word, odd", Duration.ofSeconds(30), reader::writerAwaitsFeedback, awaits -> awaits);
            }
            try (VerbsWriterEnd next = SoftRdmaChannels.writer(readerEnd)) {
                new RingWriter(next);
                Await.until("the word cleared by the next writer", Duration.ofSeconds(30), reader::writerAwaitsFeedback,
                        awaits -> !awaits);
            }
        }
    }

    private static void awaitLanded(VerbsReaderEnd readerEnd, RingWriter writer) {
        long published = writer.position();
        Await.until("the publish up to " + published + " in the reader's ring", Duration.ofSeconds(30),
                () -> RingHeader.producerPosition(readerEnd.ringRegion()) == published);
    }

    private static void write(RingWriter writer, int value) {
        ByteBuffer payload = ByteBuffer.allocate(Integer.BYTES).putInt(0, value);
        assertThat(writer.tryWrite(1, payload, 0, Integer.BYTES)).isTrue();
        writer.publish();
    }

    /** @return the sleep word the reader announced, odd and other than {@code previous} */
    private static long awaitAnnouncedSleep(VerbsWriterEnd writerEnd, long previous) {
        return Await.until("the reader's announced sleep (a new odd word in the writer's region)", Duration.ofSeconds(30),
                () -> writerEnd.feedbackRegion().getLong(FeedbackDescriptor.DOORBELL_SLEEP_OFFSET),
                word -> (word & 1) != 0 && word != previous);
    }
}
