package io.rdmarepl.channel.shm;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.channel.idle.BackoffIdleStrategy;
import io.rdmarepl.channel.idle.IdleStrategy;
import io.rdmarepl.channel.ring.NumberedFrames;
import io.rdmarepl.channel.ring.RingReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
                NumberedFrames.Checker frames = new NumberedFrames.Checker(11, MAX_PAYLOAD);
                IdleStrategy idle = BackoffIdleStrategy.defaults();
                long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);
                while (frames.received() < FRAMES && frames.failure() == null && System.nanoTime() < deadlineNs) {
                    int read = reader.poll(frames, 256);
                    if (read == 0 && !writer.isAlive() && reader.producerPosition() == reader.position()) {
                        break;
                    }
                    idle.idle(read);
                }
                assertThat(writer.waitFor(30, TimeUnit.SECONDS)).as("writer process exits").isTrue();
                String output = Files.readString(log, StandardCharsets.UTF_8);
                assertThat(writer.exitValue()).as("writer exit code, output:%n%s", output).isZero();
                assertThat(frames.failure()).isNull();
                assertThat(frames.received()).as("frames received; writer said: %s", output).isEqualTo(FRAMES);
                assertThat(reader.poll((t, f, b, o, l) -> { }, 10)).as("nothing beyond the last frame").isZero();
            } finally {
                writer.destroyForcibly();
            }
        }
        assertThat(file).doesNotExist();
    }
}
