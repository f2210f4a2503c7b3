package io.rdmarepl.channel.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.channel.ChannelException;
import io.rdmarepl.channel.ChannelSecurity;
import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.channel.idle.BackoffIdleStrategy;
import io.rdmarepl.channel.idle.IdleStrategy;
import io.rdmarepl.channel.ring.NumberedFrames;
import io.rdmarepl.channel.ring.RingReader;
import io.rdmarepl.channel.ring.RingWriter;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Two JVMs over softrdma: every byte checked across processes, and a killed peer is an error, never a hang. */
class SoftRdmaTwoProcessIT {
    private static final long FRAMES = 200_000;
    private static final int MAX_PAYLOAD = 512;

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void framesCrossProcessesIntactAndInOrder() throws Exception {
        try (VerbsReaderEnd end = SoftRdmaChannels.reader(1 << 16, 1)) {
            RingReader reader = new RingReader(end);
            Path log = Files.createTempFile("softrdma-writer", ".log");
            Process writer = java(SoftRdmaWriterProcess.class, end.uri(), Long.toString(FRAMES), Integer.toString(MAX_PAYLOAD))
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                NumberedFrames.Checker frames = new NumberedFrames.Checker(11, MAX_PAYLOAD);
                IdleStrategy idle = BackoffIdleStrategy.defaults();
                long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(70);
                while (frames.received() < FRAMES && frames.failure() == null && System.nanoTime() < deadlineNs) {
                    int read = reader.poll(frames, 256);
                    if (read == 0 && !writer.isAlive() && reader.producerPosition() == reader.position()) {
                        break;
                    }
                    idle.idle(read);
                }
                assertThat(writer.waitFor(20, TimeUnit.SECONDS)).as("writer process exits").isTrue();
                String output = Files.readString(log, StandardCharsets.UTF_8);
                assertThat(writer.exitValue()).as("writer exit code, output:%n%s", output).isZero();
                assertThat(frames.failure()).isNull();
                assertThat(frames.received()).as("frames received; writer said: %s", output).isEqualTo(FRAMES);
            } finally {
                writer.destroyForcibly();
                Files.deleteIfExists(log);
            }
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void writerSeesAnErrorWhenTheStandbyProcessIsKilled() throws Exception {
        Process standby = java(SoftRdmaReaderProcess.class, "65536").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(standby.getInputStream(), StandardCharsets.UTF_8));
            String ready = out.readLine();
            assertThat(ready).startsWith("READY ");
            try (VerbsWriterEnd end = VerbsWriterEnd.connect(ChannelUri.parse(ready.substring(6)), SoftRdmaChannels.SECRET,
                    SoftRdmaChannels.FAST)) {
                RingWriter writer = new RingWriter(end);
                ByteBuffer payload = ByteBuffer.allocate(200);
                for (int i = 0; i < 10_000; i++) {
                    while (!writer.tryWrite(3, payload, 0, 200)) {
                        writer.publish();
                    }
                    writer.publish();
                }
                standby.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                long killedNs = System.nanoTime();
                assertThatThrownBy(() -> {
                    while (System.nanoTime() - killedNs < TimeUnit.SECONDS.toNanos(20)) {
                        writer.tryWrite(3, payload, 0, 200);
                        writer.publish();
                    }
                }).isInstanceOf(ChannelException.class).hasMessageContaining(end.uri());
                assertThat(System.nanoTime() - killedNs).as("time to notice").isLessThan(TimeUnit.SECONDS.toNanos(10));
            }
        } finally {
            standby.destroyForcibly();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void standbyNoticesAKilledWriterAndAcceptsTheNextOne() throws Exception {
        try (VerbsReaderEnd end = SoftRdmaChannels.reader(1 << 16, 1)) {
            RingReader reader = new RingReader(end);
            Process writer = java(SoftRdmaWriterProcess.class, end.uri(), Long.toString(Long.MAX_VALUE), "64")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            try {
                long read = 0;
                long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (read < 10_000 && System.nanoTime() < deadlineNs) {
                    read += reader.poll((t, f, b, o, l) -> { }, 256);
                }
                assertThat(read).as("frames from the writer process").isGreaterThanOrEqualTo(10_000);
                writer.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                while (end.hasWriter() && System.nanoTime() < deadlineNs) {
                    reader.poll((t, f, b, o, l) -> { }, 256);
                }
                assertThat(end.hasWriter()).as("the standby noticed the killed writer").isFalse();
            } finally {
                writer.destroyForcibly();
            }
            try (VerbsWriterEnd next = VerbsWriterEnd.connect(ChannelUri.parse(end.uri()), SoftRdmaChannels.SECRET, SoftRdmaChannels.FAST)) {
                RingWriter nextWriter = new RingWriter(next);
                assertThat(nextWriter.position()).as("the next writer resumes after the killed one's frames")
                        .isGreaterThanOrEqualTo(reader.position());
            }
        }
    }

    private static ProcessBuilder java(Class<?> main, String... args) {
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put(ChannelSecurity.SECRET_ENV, SoftRdmaChannels.SECRET.toHex());
        return builder;
    }
}
