package io.rdmarepl.channel.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.channel.RingSettings;
import io.rdmarepl.channel.Transports;
import io.rdmarepl.channel.ring.ReaderEnd;
import io.rdmarepl.channel.ring.RingReader;
import io.rdmarepl.channel.ring.RingWriter;
import io.rdmarepl.channel.ring.WriterEnd;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShmChannelTest {

    @Test
    void shouldCarryFramesThroughTheMappedFileByUri() {
        Path file = ShmTestFiles.newRingPath("uri");
        ChannelUri uri = ChannelUri.parse("shm://" + file.toAbsolutePath());
        List<String> got = new ArrayList<>();
        try (ReaderEnd readerEnd = Transports.openReader(uri, new RingSettings(8192, 4, 99L, true));
             WriterEnd writerEnd = Transports.openWriter(uri)) {
            RingReader reader = new RingReader(readerEnd);
            RingWriter writer = new RingWriter(writerEnd);
            assertThat(writer.epoch()).isEqualTo(4);
            byte[] hello = "hello over shm".getBytes(StandardCharsets.UTF_8);
            assertThat(writer.tryWrite(1, ByteBuffer.wrap(hello), 0, hello.length)).isTrue();
            writer.publish();
            reader.poll((type, flags, buffer, offset, length) -> {
                byte[] bytes = new byte[length];
                buffer.get(offset, bytes);
                got.add(new String(bytes, StandardCharsets.UTF_8));
            }, 10);
            assertThat(writer.feedback().refresh()).isTrue();
            assertThat(writer.feedback().consumerPosition()).isEqualTo(writer.position());
        }
        assertThat(got).containsExactly("hello over shm");
        assertThat(file).doesNotExist();
    }

    @Test
    void shouldNameTheMissingFile() {
        Path missing = ShmTestFiles.newRingPath("missing");
        assertThatThrownBy(() -> ShmWriterEnd.attach(missing))
                .hasMessageContaining(missing.toString())
                .hasMessageContaining("does not exist");
    }

    @Test
    void shouldRefuseAFileThatIsNotARing() throws Exception {
        Path file = ShmTestFiles.newRingPath("garbage");
        Files.write(file, new byte[4096]);
        try {
            assertThatThrownBy(() -> ShmWriterEnd.attach(file))
                    .hasMessageContaining("not an rdmarepl ring")
                    .hasMessageContaining(file.toString());
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void shouldReplaceAStaleFileSoOldWritersCannotReachTheNewRingAndTellThemSo() throws Exception {
        Path file = ShmTestFiles.newRingPath("replace");
        try (ShmReaderEnd first = ShmReaderEnd.create(file, 4096, 1, 1L, false)) {
            new RingReader(first);
            ShmWriterEnd oldWriterEnd = ShmWriterEnd.attach(file);
            RingWriter zombie = new RingWriter(oldWriterEnd);
            try (ShmReaderEnd second = ShmReaderEnd.create(file, 4096, 1, 2L, true)) {
                RingReader reader = new RingReader(second);
                ByteBuffer payload = ByteBuffer.allocate(100);
                assertThatThrownBy(() -> {
                    while (true) {
                        zombie.tryWrite(1, payload, 0, 100);
                    }
                }).hasMessageContaining("was replaced or removed by its reader");
                assertThat(reader.poll((t, f, b, o, l) -> { }, 10)).isZero();
            }
        }
        assertThat(file).doesNotExist();
    }

    @Test
    void shouldNotLeakFileDescriptorsWhenAttachFails() throws Exception {
        Path file = ShmTestFiles.newRingPath("not-a-ring");
        Files.write(file, new byte[8192]);
        try {
            long before = openFileDescriptors();
            for (int i = 0; i < 50; i++) {
                assertThatThrownBy(() -> ShmWriterEnd.attach(file)).hasMessageContaining("not an rdmarepl ring");
            }
            assertThat(openFileDescriptors()).isLessThan(before + 10);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void shouldSayAnEmptyFileIsNotInitialisedYet() throws Exception {
        Path file = ShmTestFiles.newRingPath("empty");
        Files.write(file, new byte[0]);
        try {
            assertThatThrownBy(() -> ShmWriterEnd.attach(file)).hasMessageContaining("is not initialised yet");
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static long openFileDescriptors() throws Exception {
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }
}
