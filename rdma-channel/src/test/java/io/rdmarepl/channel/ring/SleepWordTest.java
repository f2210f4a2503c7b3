package io.rdmarepl.channel.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;

/**
 * When a sleeping reader takes a new sleep word, which a transport writing it over the wire must announce to the
 * writer (over verbs, a write into the primary's host): only once the last word was rung or frames were read since.
 * A word nothing rang is still un-rung for the writer, so an idle reader timing out again and again announces no new
 * word.
 */
class SleepWordTest {
    private static final long SLEEP_NS = 1_000;

    @Test
    void shouldKeepAndNotAnnounceTheWordWhileSleepsOnlyTimeOut() {
        Fixture fixture = new Fixture();
        fixture.sleepTimingOut();
        long first = fixture.lastAnnounced;
        fixture.sleepTimingOut();
        fixture.sleepTimingOut();

        assertThat(fixture.announcements).isEqualTo(1);
        assertThat(first & 1).isEqualTo(1);
        assertThat(fixture.awaits).isEqualTo(3);
        assertThat(fixture.sleepWordWhileAwaiting).containsOnly(first);
    }

    @Test
    void shouldTakeAndAnnounceANewWordAfterARing() {
        Fixture fixture = new Fixture();
        fixture.sleepRung();
        long rung = fixture.lastAnnounced;
        fixture.sleepTimingOut();

        assertThat(fixture.announcements).isEqualTo(2);
        assertThat(fixture.lastAnnounced).isEqualTo(rung + 2);
    }

    @Test
    void shouldTakeAndAnnounceANewWordAfterFramesWereRead() {
        Fixture fixture = new Fixture();
        fixture.sleepTimingOut();
        long before = fixture.lastAnnounced;
        fixture.writeAndRead();
        fixture.sleepTimingOut();

        assertThat(fixture.announcements).isEqualTo(2);
        assertThat(fixture.lastAnnounced).isEqualTo(before + 2);
    }

    /** A reader over memory whose doorbell answers as told, counting what the reader announces. */
    private static final class Fixture {
        final MemoryChannel channel = MemoryChannel.direct(4096, 1);
        final RingWriter writer;
        final RingReader reader;
        final Deque<Boolean> answers = new ArrayDeque<>();
        final Deque<Long> sleepWordWhileAwaiting = new ArrayDeque<>();
        int announcements;
        int awaits;
        long lastAnnounced;

        Fixture() {
            ReaderEnd memory = channel.readerEnd();
            Doorbell doorbell = new Doorbell() {
                @Override
                public boolean await(long timeoutNs) {
                    awaits++;
                    sleepWordWhileAwaiting.add(channel.feedback.getLong(FeedbackDescriptor.DOORBELL_SLEEP_OFFSET));
                    return answers.removeFirst();
                }

                @Override
                public void wakeUp() {
                }

                @Override
                public void close() {
                }
            };
            ReaderEnd end = new ReaderEnd() {
                @Override
                public ByteBuffer ringRegion() {
                    return memory.ringRegion();
                }

                @Override
                public ByteBuffer feedbackImage() {
                    return memory.feedbackImage();
                }

                @Override
                public void pushFeedback() {
                }

                @Override
                public Doorbell doorbell() {
                    return doorbell;
                }

                @Override
                public void announceSleep(boolean newWord) {
                    long word = channel.feedback.getLong(FeedbackDescriptor.DOORBELL_SLEEP_OFFSET);
                    assertThat(newWord).as("announced as new: word %d after %d", word, lastAnnounced).isEqualTo(word != lastAnnounced);
                    if (newWord) {
                        announcements++;
                        lastAnnounced = word;
                    }
                }

                @Override
                public String uri() {
                    return "memory:sleep-words";
                }

                @Override
                public void close() {
                }
            };
            this.reader = new RingReader(end);
            this.writer = new RingWriter(channel.writerEnd());
        }

        void sleepTimingOut() {
            answers.add(false);
            reader.sleepUntilWritten(SLEEP_NS);
        }

        void sleepRung() {
            answers.add(true);
            reader.sleepUntilWritten(SLEEP_NS);
        }

        void writeAndRead() {
            ByteBuffer payload = ByteBuffer.allocate(Integer.BYTES).putInt(0, 7);
            assertThat(writer.tryWrite(1, payload, 0, Integer.BYTES)).isTrue();
            writer.publish();
            assertThat(reader.poll((t, f, b, o, l) -> { }, 10)).isEqualTo(1);
        }
    }
}
