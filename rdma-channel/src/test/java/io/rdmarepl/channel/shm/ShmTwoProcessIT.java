package io.rdmarepl.channel.shm;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.channel.ring.FramesFromProcess;
import io.rdmarepl.channel.ring.RingReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Two JVMs, one shared-memory file: a forked writer process, this process reading and checking every byte. */
class ShmTwoProcessIT {
    private static final long FRAMES = 1_000_000;
    private static final int MAX_PAYLOAD = 512;

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void millionFramesCrossProcessesIntactAndInOrder() throws Exception {
        Path file = ShmTestFiles.newRingPath("two-process");
        try (ShmReaderEnd end = ShmReaderEnd.create(file, 1 << 18, 1, 7L, true)) {
            RingReader reader = new RingReader(end);
            Path log = Files.createTempFile(file.getParent(), "writer", ".log");
            Process writer = new ProcessBuilder(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"),
                    ShmWriterProcess.class.getName(), file.toString(), Long.toString(FRAMES), Integer.toString(MAX_PAYLOAD)))
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                new FramesFromProcess(reader, writer, log, () -> "shared-memory file " + file).expect(FRAMES, 11, MAX_PAYLOAD,
                        Duration.ofSeconds(30));
            } finally {
                writer.destroyForcibly();
            }
        }
        assertThat(file).doesNotExist();
    }
}
