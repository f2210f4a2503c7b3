package io.rdmarepl.channel.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.channel.RingSettings;
import io.rdmarepl.channel.Transports;
import io.rdmarepl.channel.ring.ReaderEnd;
import io.rdmarepl.channel.ring.RingReader;
import io.rdmarepl.channel.ring.RingWriter;
import io.rdmarepl.channel.ring.WriterEnd;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import io.rdmarepl.channel.ring.NumberedFrames;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class SoftRdmaChannelTest {

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void shouldCarryFramesOverSoftRdmaByUri() {
        List<String> got = new ArrayList<>();
        try (ReaderEnd readerEnd = Transports.openReader(ChannelUri.parse("softrdma://127.0.0.1:0"),
                new RingSettings(8192, 4, 99L, true), SoftRdmaChannels.SECRET)) {
            RingReader reader = new RingReader(readerEnd);
            try (WriterEnd writerEnd = Transports.openWriter(ChannelUri.parse(readerEnd.uri()), SoftRdmaChannels.SECRET)) {
                RingWriter writer = new RingWriter(writerEnd);
                assertThat(writer.epoch()).isEqualTo(4);
                byte[] hello = "hello over softrdma".getBytes(StandardCharsets.UTF_8);
                assertThat(writer.tryWrite(1, ByteBuffer.wrap(hello), 0, hello.length)).isTrue();
                writer.publish();
                long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (got.isEmpty() && System.nanoTime() < deadlineNs) {
                    reader.poll((type, flags, buffer, offset, length) -> {
                        byte[] bytes = new byte[length];
                        buffer.get(offset, bytes);
                        got.add(new String(bytes, StandardCharsets.UTF_8));
                    }, 10);
                }
                while (writer.feedback().consumerPosition() != writer.position() && System.nanoTime() < deadlineNs) {
                    writer.feedback().refresh();
                }
                assertThat(writer.feedback().consumerPosition()).isEqualTo(writer.position());
            }
        }
        assertThat(got).containsExactly("hello over softrdma");
    }

    @Test
    @Timeout(value = 40, unit = TimeUnit.SECONDS)
    void shouldDeliverEveryFrameIntactAndInOrderOverManyLaps() throws Exception {
        int frames = 60_000;
        int max = 300;
        try (VerbsReaderEnd readerEnd = SoftRdmaChannels.reader(16 * 1024, 1)) {
            RingReader reader = new RingReader(readerEnd);
            AtomicReference<Throwable> writerFailure = new AtomicReference<>();
            Thread writerThread = new Thread(() -> {
                try (VerbsWriterEnd writerEnd = SoftRdmaChannels.writer(readerEnd)) {
                    RingWriter writer = new RingWriter(writerEnd);
                    NumberedFrames.write(writer, 5, frames, max, 8);
                } catch (Throwable e) {
                    writerFailure.set(e);
                }
            }, "softrdma-test-writer");
            writerThread.start();
            NumberedFrames.Checker received = new NumberedFrames.Checker(5, max);
            long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (received.received() < frames && received.failure() == null && writerFailure.get() == null
                    && System.nanoTime() < deadlineNs) {
                reader.poll(received, 64);
            }
            writerThread.join(10_000);
            assertThat(writerFailure.get()).isNull();
            assertThat(received.failure()).isNull();
            assertThat(received.received()).isEqualTo(frames);
            assertThat(reader.position()).isGreaterThan(20L * 16 * 1024);
        }
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void shouldBackPressureTheWriterUntilTheReaderConsumes() {
        try (VerbsReaderEnd readerEnd = SoftRdmaChannels.reader(4096, 1)) {
            RingReader reader = new RingReader(readerEnd);
            try (VerbsWriterEnd writerEnd = SoftRdmaChannels.writer(readerEnd)) {
                RingWriter writer = new RingWriter(writerEnd);
                ByteBuffer payload = ByteBuffer.allocate(100);
                int written = 0;
                while (writer.tryWrite(9, payload, 0, 100)) {
                    written++;
                }
                writer.publish();
                assertThat(writer.tryClaim(9, 100)).isEqualTo(RingWriter.BACK_PRESSURED);
                int[] read = {0};
                long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (read[0] < written && System.nanoTime() < deadlineNs) {
                    read[0] += reader.poll((t, f, b, o, l) -> { }, 100);
                }
                assertThat(read[0]).isEqualTo(written);
                boolean accepted = false;
                while (!accepted && System.nanoTime() < deadlineNs) {
                    accepted = writer.tryWrite(9, payload, 0, 100);
                }
                assertThat(accepted).as("writer accepted again once the reader's feedback arrived (reader has writer: %s,"
                        + " writer failure: %s, reader at %d, writer at %d, feedback consumer %d)", readerEnd.hasWriter(),
                        writerEnd.failure(), reader.position(), writer.position(), writer.feedback().consumerPosition()).isTrue();
            }
        }
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void shouldRefuseFramesOfAStaleEpochAndFenceTheWriter() {
        try (VerbsReaderEnd readerEnd = SoftRdmaChannels.reader(8192, 1)) {
            RingReader reader = new RingReader(readerEnd);
            try (VerbsWriterEnd stale = SoftRdmaChannels.writer(readerEnd)) {
                RingWriter writer = new RingWriter(stale);
                reader.epoch(2);
                ByteBuffer payload = ByteBuffer.allocate(16);
                long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                int claim = 0;
                while (claim != RingWriter.FENCED && System.nanoTime() < deadlineNs) {
                    claim = writer.tryClaim(3, 16);
                    if (claim >= 0) {
                        writer.commit();
                        writer.publish();
                    }
                }
                assertThat(claim).as("the stale writer is fenced").isEqualTo(RingWriter.FENCED);
                assertThat(reader.poll((t, f, b, o, l) -> { }, 10)).isZero();
            }
            try (VerbsWriterEnd fresh = SoftRdmaChannels.writer(readerEnd)) {
                RingWriter writer = new RingWriter(fresh);
                assertThat(writer.epoch()).as("a writer connecting now learns the new epoch").isEqualTo(2);
                assertThat(writer.tryWrite(3, ByteBuffer.allocate(16), 0, 16)).isTrue();
                writer.publish();
                long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                int read = 0;
                while (read == 0 && System.nanoTime() < deadlineNs) {
                    read = reader.poll((t, f, b, o, l) -> { }, 10);
                }
                assertThat(read).isEqualTo(1);
            }
        }
    }
}
