package io.rdmarepl.channel.ring;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.channel.idle.BackoffIdleStrategy;
import io.rdmarepl.channel.idle.IdleStrategy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Reads the numbered frames ({@link NumberedFrames}) a writer in another process sends, checks
 * every one, and when they stop coming fails at once with what both sides were doing: the reader's
 * counters, the transport's state, the writer's output and the thread stacks of both processes. A
 * stall in a two-process test is otherwise a bare timeout that says nothing.
 */
public final class FramesFromProcess {
    private final RingReader reader;
    private final Process writer;
    private final Path writerLog;
    private final Supplier<String> transportState;

    /**
     * @param writerLog where the writer's stdout and stderr go
     * @param transportState a line about the reader's transport (connected writer, ...) for the report
     */
    public FramesFromProcess(RingReader reader, Process writer, Path writerLog, Supplier<String> transportState) {
        this.reader = reader;
        this.writer = writer;
        this.writerLog = writerLog;
        this.transportState = transportState;
    }

    /**
     * Reads until {@code frames} frames of {@code type} arrived and the writer exited with 0.
     *
     * @param stall how long without a new frame counts as stuck
     * @throws AssertionError with the report when the frames stop, a frame is wrong, or the writer fails
     */
    public void expect(long frames, int type, int maxPayload, Duration stall) throws IOException, InterruptedException {
        NumberedFrames.Checker checker = new NumberedFrames.Checker(type, maxPayload);
        IdleStrategy idle = BackoffIdleStrategy.defaults();
        long lastFrameNs = System.nanoTime();
        while (checker.received() < frames && checker.failure() == null) {
            int read = reader.poll(checker, 256);
            if (read > 0) {
                lastFrameNs = System.nanoTime();
            } else if (!writer.isAlive() && reader.producerPosition() == reader.position()) {
                break;
            } else if (System.nanoTime() - lastFrameNs > stall.toNanos()) {
                throw new AssertionError(report("no frame for " + stall.toSeconds() + " s after " + checker.received()
                        + " of " + frames));
            }
            idle.idle(read);
        }
        if (!writer.waitFor(stall.toSeconds(), TimeUnit.SECONDS)) {
            throw new AssertionError(report("the writer process did not exit within " + stall.toSeconds() + " s after "
                    + checker.received() + " of " + frames + " frames"));
        }
        String output = output();
        assertThat(writer.exitValue()).as("writer exit code, output:%n%s", output).isZero();
        assertThat(checker.failure()).isNull();
        assertThat(checker.received()).as("frames received; writer said: %s", output).isEqualTo(frames);
        assertThat(reader.poll((t, f, b, o, l) -> { }, 10)).as("nothing beyond the last frame").isZero();
    }

    private String report(String what) throws IOException, InterruptedException {
        StringBuilder report = new StringBuilder(what).append('\n')
                .append("reader: position ").append(reader.position())
                .append(", writer announced ").append(reader.producerPosition())
                .append(", incomplete reads ").append(reader.incompleteReads())
                .append(", refused other-epoch frames ").append(reader.refusedEpochFrames())
                .append("; ").append(transportState.get())
                .append("; writer process ").append(writer.isAlive() ? "alive" : "exited " + writer.exitValue()).append('\n')
                .append("writer output:\n").append(output()).append('\n')
                .append("writer threads:\n").append(threadsOf(writer)).append('\n')
                .append("reader threads:\n");
        for (Map.Entry<Thread, StackTraceElement[]> thread : Thread.getAllStackTraces().entrySet()) {
            report.append('"').append(thread.getKey().getName()).append("\" ").append(thread.getKey().getState()).append('\n');
            for (StackTraceElement frame : thread.getValue()) {
                report.append("\tat ").append(frame).append('\n');
            }
        }
        return report.toString();
    }

    private String output() throws IOException {
        return Files.readString(writerLog, StandardCharsets.UTF_8);
    }

    private static String threadsOf(Process process) throws IOException, InterruptedException {
        if (!process.isAlive()) {
            return "(exited)";
        }
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process dump = new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), "Thread.print")
                .redirectErrorStream(true).start();
        byte[] out = dump.getInputStream().readAllBytes();
        dump.waitFor(10, TimeUnit.SECONDS);
        return new String(out, StandardCharsets.UTF_8);
    }
}
