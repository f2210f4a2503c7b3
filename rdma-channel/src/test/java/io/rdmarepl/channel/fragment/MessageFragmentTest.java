package io.rdmarepl.channel.fragment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.channel.ring.Payloads;
import io.rdmarepl.channel.ring.RingReader;
import io.rdmarepl.channel.ring.RingWriter;
import io.rdmarepl.channel.shm.ShmReaderEnd;
import io.rdmarepl.channel.shm.ShmWriterEnd;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MessageFragmentTest {
    private static final int CAPACITY = 64 * 1024;

    private final ShmReaderEnd readerEnd = ShmReaderEnd.create(ringPath(), CAPACITY, 1, 1L, true);
    private final ShmWriterEnd writerEnd = ShmWriterEnd.attach(readerEnd.path());
    private final RingReader reader = new RingReader(readerEnd);
    private final MessageWriter writer = new MessageWriter(new RingWriter(writerEnd));
    private final ArrayDeque<long[]> sent = new ArrayDeque<>();
    private final ByteBuffer source = ByteBuffer.allocateDirect(CAPACITY / 2).order(ByteOrder.LITTLE_ENDIAN);
    private String failure;
    private final MessageAssembler assembler = new MessageAssembler((type, buffer, offset, length) -> {
        long[] expected = sent.poll();
        String problem = expected == null ? "unexpected message of " + length + " bytes"
                : Payloads.check(buffer, offset, length, expected[0], (int) expected[1]);
        if (problem != null && failure == null) {
            failure = problem;
        }
    });

    @AfterEach
    void close() {
        writerEnd.close();
        readerEnd.close();
    }

    @Test
    void shouldCarryMessagesOfAnySizeUpToHalfTheRingAcrossManyLaps() {
        Random random = new Random(7);
        long number = 0;
        for (int i = 0; i < 3000; i++) {
            int length = random.nextInt(4) == 0 ? random.nextInt(CAPACITY / 2 + 1) : random.nextInt(600);
            Payloads.fill(source, 0, length, number);
            while (!writer.tryWrite(3, source, 0, length)) {
                assertThat(reader.poll(assembler, 1 + random.nextInt(50))).isPositive();
            }
            sent.add(new long[] {number++, length});
            if (random.nextInt(3) == 0) {
                reader.poll(assembler, random.nextInt(100) + 1);
            }
        }
        while (reader.poll(assembler, 1000) > 0) {
            // drain
        }
        assertThat(failure).isNull();
        assertThat(sent).isEmpty();
        assertThat(reader.position()).isGreaterThan(20L * CAPACITY);
    }

    @Test
    void shouldWriteNothingOfAMessageTheRingCannotHoldYet() {
        Payloads.fill(source, 0, 20_000, 0);
        assertThat(writer.tryWrite(3, source, 0, 20_000)).isTrue();
        sent.add(new long[] {0, 20_000});
        long position = writer.ringWriter().position();
        Payloads.fill(source, 0, 30_000, 1);
        assertThat(writer.tryWrite(3, source, 0, 30_000)).isTrue();
        sent.add(new long[] {1, 30_000});
        position = writer.ringWriter().position();

        assertThat(writer.tryWrite(3, source, 0, 30_000)).isFalse();
        assertThat(writer.ringWriter().position()).isEqualTo(position);
        reader.poll(assembler, 1000);
        assertThat(failure).isNull();
        assertThat(sent).isEmpty();
    }

    @Test
    void shouldRefuseMessagesLargerThanHalfTheRing() {
        assertThatThrownBy(() -> writer.tryWrite(3, ByteBuffer.allocateDirect(CAPACITY), 0, CAPACITY / 2 + 1))
                .hasMessageContaining("exceeds half the ring");
    }

    @Test
    void shouldDropAHalfWrittenMessageWhenTheNextOneBegins() {
        // a writer that died after the first fragment of a large message: BEGIN without END
        RingWriter ring = writer.ringWriter();
        int begin = ring.tryClaim(3, 16);
        ring.buffer().putLong(begin, 99);
        ring.commit(MessageFlags.BEGIN);

        Payloads.fill(source, 0, 100, 5);
        assertThat(writer.tryWrite(3, source, 0, 100)).isTrue();
        sent.add(new long[] {5, 100});
        reader.poll(assembler, 100);

        assertThat(failure).isNull();
        assertThat(sent).isEmpty();
        assertThat(assembler.droppedPartialMessages()).isEqualTo(1);
    }

    private static Path ringPath() {
        Path dir = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm") : Path.of("target");
        return dir.resolve("rdmarepl-fragment-test-" + UUID.randomUUID());
    }
}
