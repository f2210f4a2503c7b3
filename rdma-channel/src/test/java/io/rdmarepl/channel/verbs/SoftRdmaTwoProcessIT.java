package io.rdmarepl.channel.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.channel.ChannelException;
import io.rdmarepl.channel.ChannelSecurity;
import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.channel.RingSettings;
import io.rdmarepl.channel.ring.FramesFromProcess;
import io.rdmarepl.channel.ring.RingReader;
import io.rdmarepl.channel.ring.RingWriter;
import io.rdmarepl.testsupport.Await;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Two JVMs over softrdma: every byte checked across processes, and a killed peer is an error, never a hang. */
class SoftRdmaTwoProcessIT {
    private static final long FRAMES = 200_000;
    private static final int MAX_PAYLOAD = 512;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void framesCrossProcessesIntactAndInOrder() throws Exception {
        try (VerbsReaderEnd end = SoftRdmaChannels.reader(1 << 16, 1)) {
            RingReader reader = new RingReader(end);
            Path log = Files.createTempFile("softrdma-writer", ".log");
            Process writer = java(SoftRdmaWriterProcess.class, end.uri(), Long.toString(FRAMES), Integer.toString(MAX_PAYLOAD))
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                new FramesFromProcess(reader, writer, log, () -> "standby end: " + (end.hasWriter() ? "writer connected" : "no writer"))
                        .expect(FRAMES, 11, MAX_PAYLOAD, Duration.ofSeconds(20));
            } finally {
                writer.destroyForcibly();
                Files.deleteIfExists(log);
            }
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aWriterTheStandbyCanNoLongerReportToIsDisconnectedNotLeftWaiting() throws Exception {
        // depth 4, a completion timeout of 200 ms and no feedback rate limit: the fifth report to an
        // unresponsive writer gives up on it
        VerbsSettings impatient = new VerbsSettings(3_000, 3_000, 200, 4, 2, 0);
        int capacity = 1 << 16;
        try (VerbsReaderEnd end = VerbsReaderEnd.listen(ChannelUri.parse("softrdma://127.0.0.1:0"),
                new RingSettings(capacity, 1, 42L, true), SoftRdmaChannels.SECRET, impatient)) {
            RingReader reader = new RingReader(end);
            Process writer = java(SoftRdmaWriterProcess.class, end.uri(), "1000000", "64")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.PIPE).start();
            try {
                Await.until("the writer filled half the ring", Duration.ofSeconds(30), () -> reader.producerPosition() >= capacity / 2);
                signal("STOP", writer);
                long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                int reports = 0;
                while (end.hasWriter() && System.nanoTime() < deadlineNs) {
                    reports += reader.poll((t, f, b, o, l) -> { }, 1);
                }
                assertThat(end.hasWriter()).as("the standby gave up on the stopped writer after %d reports", reports).isFalse();
                signal("CONT", writer);
                assertThat(writer.waitFor(20, TimeUnit.SECONDS)).as("the writer fails instead of waiting for room for ever").isTrue();
                String output = new String(writer.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(writer.exitValue()).as("writer exit code, output:%n%s", output).isNotZero();
                assertThat(output).contains("disconnected");
            } finally {
                writer.destroyForcibly();
            }
        }
    }

    private static void signal(String signal, Process process) throws Exception {
        assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor()).isZero();
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
