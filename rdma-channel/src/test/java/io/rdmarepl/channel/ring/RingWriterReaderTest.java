package io.rdmarepl.channel.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.testsupport.Await;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RingWriterReaderTest {
    private static final int CAPACITY = 4096;
    private static final int TYPE = 7;

    private final MemoryChannel channel = MemoryChannel.direct(CAPACITY, 1);
    private final RingReader reader = new RingReader(channel.readerEnd());
    private final RingWriter writer = new RingWriter(channel.writerEnd());
    private final List<String> received = new ArrayList<>();
    private final FrameHandler collect = (type, flags, buffer, offset, length) -> {
        byte[] bytes = new byte[length];
        buffer.get(offset, bytes);
        received.add(type + ":" + flags + ":" + new String(bytes));
    };

    @Test
    void shouldDeliverCommittedFramesInOrder() {
        write("alpha");
        write("beta");
        write("");

        assertThat(reader.poll(collect, 10)).isEqualTo(3);
        assertThat(received).containsExactly("7:0:alpha", "7:0:beta", "7:0:");
        assertThat(reader.poll(collect, 10)).isZero();
    }

    @Test
    void shouldCarryFlags() {
        int offset = writer.tryClaim(TYPE, 1);
        writer.buffer().put(offset, (byte) 'x');
        writer.commit(3);

        reader.poll(collect, 10);
        assertThat(received).containsExactly("7:3:x");
    }

    @Test
    void shouldHonourFrameLimit() {
        write("a");
        write("b");
        assertThat(reader.poll(collect, 1)).isEqualTo(1);
        assertThat(reader.poll(collect, 1)).isEqualTo(1);
        assertThat(received).containsExactly("7:0:a", "7:0:b");
    }

    @Test
    void shouldEndThePollAfterTheFrameWhoseHandlerAsksAndGoOnFromTheNextFrameNextTime() {
        write("a");
        write("stop");
        write("c");
        FrameHandler stopsAtStop = (type, flags, buffer, offset, length) -> {
            collect.onFrame(type, flags, buffer, offset, length);
            if (received.get(received.size() - 1).endsWith(":stop")) {
                reader.endPoll();
            }
        };
        assertThat(reader.poll(stopsAtStop, 10)).isEqualTo(2);
        assertThat(reader.poll(stopsAtStop, 10)).isEqualTo(1);
        assertThat(received).containsExactly("7:0:a", "7:0:stop", "7:0:c");
    }

    @Test
    void shouldNotDeliverClaimedButUncommittedFrame() {
        writer.tryClaim(TYPE, 8);
        assertThat(reader.poll(collect, 10)).isZero();
    }

    @Test
    void shouldNotDeliverAbortedFrame() {
        int offset = writer.tryClaim(TYPE, 4);
        writer.buffer().putInt(offset, 99);
        writer.abort();
        write("after");

        reader.poll(collect, 10);
        assertThat(received).containsExactly("7:0:after");
    }

    @Test
    void shouldRejectWriteWhenInsufficientSpace() {
        int frames = 0;
        while (writeOrFalse("0123456789abcdef0123456789abcdef")) {
            frames++;
        }
        assertThat(frames).isEqualTo(CAPACITY / FrameDescriptor.alignedFrameLength(32));
        assertThat(writer.tryClaim(TYPE, 32)).isEqualTo(RingWriter.BACK_PRESSURED);
        assertThat(writer.backPressureEvents()).isGreaterThan(0);

        assertThat(reader.poll(collect, 1)).isEqualTo(1);
        assertThat(writeOrFalse("0123456789abcdef0123456789abcdef")).isTrue();
        assertThat(reader.poll(collect, 1000)).isEqualTo(frames);
        assertThat(received).allMatch(s -> s.equals("7:0:0123456789abcdef0123456789abcdef"));
    }

    @Test
    void shouldWrapWithPaddingFrameAtEndOfLap() {
        int payload = 400;
        int frameLength = FrameDescriptor.alignedFrameLength(payload);
        for (int lap = 0; lap < 10; lap++) {
            for (int i = 0; i < 3; i++) {
                assertThat(writeOrFalse("x".repeat(payload))).isTrue();
            }
            assertThat(reader.poll(collect, 10)).isEqualTo(3);
        }
        assertThat(received).hasSize(30);
        assertThat(reader.position()).isEqualTo(writer.position());
        assertThat(reader.position()).isGreaterThan(10L * 3 * frameLength);
    }

    @Test
    void shouldSkipTailTooShortForAnyFrame() {
        // 4096 - 8 leaves 8 bytes, less than a minimal frame: both sides move to the next lap
        int payload = CAPACITY - 8 - FrameDescriptor.MIN_FRAME_LENGTH;
        ByteBuffer big = ByteBuffer.allocate(4000);
        int filled = 0;
        while (filled + FrameDescriptor.alignedFrameLength(480) <= CAPACITY - 8) {
            assertThat(writer.tryWrite(TYPE, big, 0, 480)).isTrue();
            filled += FrameDescriptor.alignedFrameLength(480);
            reader.poll(collect, 10);
        }
        int rest = CAPACITY - 8 - filled - FrameDescriptor.MIN_FRAME_LENGTH;
        assertThat(rest).isBetween(0, payload);
        assertThat(writer.tryWrite(TYPE, big, 0, rest)).isTrue();
        assertThat(writer.position() % CAPACITY).as("writer skipped the dead 8 bytes").isZero();
        write("next lap");
        reader.poll(collect, 10);
        assertThat(received.get(received.size() - 1)).isEqualTo("7:0:next lap");
        assertThat(reader.position()).isEqualTo(writer.position());
    }

    @Test
    void shouldNotDeliverFrameWithCorruptPayload() {
        write("good");
        write("will be corrupted");
        int secondFrame = RingDescriptor.DATA_OFFSET + FrameDescriptor.alignedFrameLength(4);
        int payloadByte = secondFrame + FrameDescriptor.HEADER_LENGTH + 3;
        channel.ring.put(payloadByte, (byte) (channel.ring.get(payloadByte) ^ 0x10));

        assertThat(reader.poll(collect, 10)).isEqualTo(1);
        assertThat(received).containsExactly("7:0:good");
        assertThat(reader.incompleteReads()).isEqualTo(1);
    }

    @Test
    void shouldNotDeliverFrameLeftFromPreviousLap() {
        write("first lap");
        reader.poll(collect, 10);
        ByteBuffer snapshot = ByteBuffer.allocate(CAPACITY);
        snapshot.put(0, channel.ring, RingDescriptor.DATA_OFFSET, CAPACITY);
        // the reader comes round to offset 0 again, where the old frame's bytes are still valid
        ByteBuffer filler = ByteBuffer.allocate(400);
        while (reader.position() < CAPACITY) {
            writer.tryWrite(TYPE, filler, 0, 400);
            reader.poll((t, f, b, o, l) -> { }, 100);
        }
        channel.ring.put(RingDescriptor.DATA_OFFSET, snapshot, 0, CAPACITY);
        received.clear();
        assertThat(reader.poll(collect, 10)).isZero();
    }

    @Test
    void shouldRefuseFramesOfStaleEpochAndLetTheSuccessorOverwriteThem() {
        // a zombie over a remote transport: frames staged before the fence land after it
        MemoryChannel remote = new MemoryChannel(CAPACITY, 1, 1L, true, 16, 0);
        RingReader standby = new RingReader(remote.readerEnd());
        RingWriter zombie = new RingWriter(remote.writerEnd());
        assertThat(zombie.tryWrite(TYPE, ByteBuffer.wrap("before".getBytes()), 0, 6)).isTrue();
        zombie.publish();
        standby.poll(collect, 10);
        assertThat(zombie.tryWrite(TYPE, ByteBuffer.wrap("zombie".getBytes()), 0, 6)).isTrue();
        assertThat(zombie.tryWrite(TYPE, ByteBuffer.wrap("zombie2".getBytes()), 0, 7)).isTrue();
        standby.epoch(2);
        zombie.publish();

        assertThat(standby.poll(collect, 10)).isZero();
        assertThat(standby.poll(collect, 10)).isZero();
        assertThat(standby.refusedEpochFrames()).isEqualTo(1);
        assertThat(zombie.tryClaim(TYPE, 1)).isEqualTo(RingWriter.FENCED);

        RingWriter successor = new RingWriter(remote.readerSideWriterEnd());
        assertThat(successor.epoch()).isEqualTo(2);
        assertThat(successor.position()).as("resumes on the refused frames").isEqualTo(standby.position());
        assertThat(successor.tryWrite(TYPE, ByteBuffer.wrap("new".getBytes()), 0, 3)).isTrue();
        successor.publish();

        assertThat(standby.poll(collect, 10)).isEqualTo(1);
        assertThat(received).containsExactly("7:0:before", "7:0:new");
    }

    @Test
    void shouldAnswerFencedOnTheFirstClaimAfterTheEpochMoved() {
        write("before");
        reader.epoch(5);
        assertThat(writer.tryClaim(TYPE, 100)).isEqualTo(RingWriter.FENCED);
        assertThat(writer.fenced()).isTrue();
        assertThat(writer.backPressureEvents()).isZero();
    }

    @Test
    void shouldPublishProducerPositionAndFeedback() {
        write("abc");
        assertThat(reader.producerPosition()).isZero();
        assertThat(writer.publish()).isEqualTo(FrameDescriptor.alignedFrameLength(3));
        assertThat(writer.publish()).isZero();
        assertThat(reader.producerPosition()).isEqualTo(writer.position());

        reader.feedback().appliedLsn(1000);
        reader.feedback().durableLsn(900);
        reader.poll(collect, 10);
        FeedbackSnapshot feedback = writer.feedback();
        assertThat(feedback.refresh()).isTrue();
        assertThat(feedback.consumerPosition()).isEqualTo(writer.position());
        assertThat(feedback.appliedLsn()).isEqualTo(1000);
        assertThat(feedback.durableLsn()).isEqualTo(900);
        assertThat(feedback.heartbeatTimeUs()).isPositive();
        assertThat(feedback.epoch()).isEqualTo(1);
    }

    @Test
    void shouldKeepTheHeartbeatStillWhileHeldAndStillReportPositions() {
        reader.publishFeedback();
        FeedbackSnapshot feedback = writer.feedback();
        assertThat(feedback.refresh()).isTrue();
        long held = feedback.heartbeatTimeUs();

        reader.holdHeartbeat(true);
        assertThat(reader.heartbeatHeld()).isTrue();
        write("abc");
        writer.publish();
        reader.feedback().appliedLsn(500);
        awaitWallClockPast(held); // a live heartbeat would have moved by now
        reader.poll(collect, 10);
        reader.publishFeedback();
        assertThat(feedback.refresh()).isTrue();
        assertThat(feedback.heartbeatTimeUs()).as("held: the writer hears no new word").isEqualTo(held);
        assertThat(feedback.consumerPosition()).as("positions still flow").isEqualTo(writer.position());
        assertThat(feedback.appliedLsn()).isEqualTo(500);

        reader.holdHeartbeat(false);
        awaitWallClockPast(held);
        reader.publishFeedback();
        assertThat(feedback.refresh()).isTrue();
        assertThat(feedback.heartbeatTimeUs()).as("released: it moves again").isGreaterThan(held);
    }

    /** Heartbeats are wall-clock milliseconds in µs: until the clock shows a later one than {@code us}. */
    private static void awaitWallClockPast(long us) {
        Await.until("the wall clock past " + us + " µs", Duration.ofSeconds(5), () -> System.currentTimeMillis() * 1000L > us);
    }

    @Test
    void shouldIgnoreTornFeedback() {
        reader.feedback().appliedLsn(77);
        reader.publishFeedback();
        FeedbackSnapshot feedback = writer.feedback();
        feedback.refresh();
        assertThat(feedback.appliedLsn()).isEqualTo(77);

        reader.feedback().appliedLsn(88);
        reader.publishFeedback();
        channel.feedback.putLong(FeedbackDescriptor.APPLIED_LSN_OFFSET, 99);
        assertThat(feedback.refresh()).isFalse();
        assertThat(feedback.appliedLsn()).isEqualTo(77);
        assertThat(feedback.tornReads()).isEqualTo(1);
    }

    @Test
    void shouldRefuseSecondClaimAndReservedType() {
        writer.tryClaim(TYPE, 1);
        assertThatThrownBy(() -> writer.tryClaim(TYPE, 1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("claimed but not committed");
        writer.abort();
        assertThatThrownBy(() -> writer.tryClaim(FrameDescriptor.PADDING_TYPE, 1))
                .hasMessageContaining("frame type must be 1..32767: 0");
        assertThatThrownBy(() -> writer.tryClaim(TYPE, writer.maxPayloadLength() + 1))
                .hasMessageContaining("frame payload must be 0.." + writer.maxPayloadLength() + " bytes");
    }

    @Test
    void shouldResumeAfterFramesAPredecessorCommittedButNeverPublished() {
        write("published");
        writer.publish();
        write("committed only");
        write("also committed");
        reader.poll(collect, 2); // the reader has already seen one unpublished frame

        RingWriter restarted = new RingWriter(channel.writerEnd());
        assertThat(restarted.position()).isEqualTo(writer.position());
        assertThat(restarted.tryWrite(TYPE, ByteBuffer.wrap("after restart".getBytes()), 0, 13)).isTrue();
        reader.poll(collect, 10);
        assertThat(received).containsExactly("7:0:published", "7:0:committed only", "7:0:also committed", "7:0:after restart");
    }

    @Test
    void shouldResumeAtTheConsumerWhenTheProducerWordIsBehindOrAhead() {
        write("one");
        reader.poll(collect, 10);
        RingHeader.producerPosition(channel.ring, 0); // a stale announcement
        assertThat(new RingWriter(channel.writerEnd()).position()).isEqualTo(reader.position());
        RingHeader.producerPosition(channel.ring, 4 * CAPACITY); // an announcement beyond anything valid
        assertThat(new RingWriter(channel.writerEnd()).position()).isEqualTo(reader.position());
    }

    @Test
    void shouldFailClearlyWhenTheReaderNeverReportedFeedback() {
        MemoryChannel silent = MemoryChannel.direct(CAPACITY, 1);
        assertThatThrownBy(() -> new RingWriter(silent.writerEnd(), 20_000_000L))
                .hasMessageContaining("no valid feedback from the reader of memory:writer");
    }

    private void write(String text) {
        assertThat(writeOrFalse(text)).as("room for '%s'", text).isTrue();
    }

    private boolean writeOrFalse(String text) {
        byte[] bytes = text.getBytes();
        return writer.tryWrite(TYPE, ByteBuffer.wrap(bytes), 0, bytes.length);
    }
}
