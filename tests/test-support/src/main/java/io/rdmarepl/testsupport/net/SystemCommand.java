package io.rdmarepl.testsupport.net;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One short system command ({@code ip}, {@code nft}, {@code tc}) run to its end: its exit code and its output
 * (stdout and stderr together). {@link #run} fails naming the command, the code and the output.
 */
public final class SystemCommand {
    /** Long enough for any {@code ip} or {@code nft} call on a busy 2-core host. */
    static final Duration TIMEOUT = Duration.ofSeconds(20);

    /** What a command did. */
    public record Result(List<String> command, int exitCode, String output) {
        public boolean succeeded() {
            return exitCode == 0;
        }

        /** The first line of the output, or the exit code when it printed nothing: for one-line messages. */
        public String firstLine() {
            String line = output.lines().filter(l -> !l.isBlank()).findFirst().orElse("");
            return line.isEmpty() ? "exit code " + exitCode : line.trim();
        }
    }

    private SystemCommand() {
    }

    /** Runs {@code command}; fails unless it exits 0. */
    public static String run(List<String> command) {
        return run(command, null);
    }

    /** Runs {@code command} with {@code input} on its standard input; fails unless it exits 0. */
    public static String run(List<String> command, String input) {
        Result result = attempt(command, input);
        if (!result.succeeded()) {
            throw new IllegalStateException("`" + String.join(" ", command) + "` exited " + result.exitCode() + ": "
                    + result.output().trim());
        }
        return result.output();
    }

    /** Runs {@code command}, whatever it exits with (a missing tool is exit code 127). */
    public static Result attempt(List<String> command) {
        return attempt(command, null);
    }

    public static Result attempt(List<String> command, String input) {
        Path output = null;
        Process process = null;
        try {
            output = Files.createTempFile("rdmarepl-command", ".out");
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            try (OutputStream stdin = process.getOutputStream()) {
                if (input != null) {
                    stdin.write(input.getBytes(StandardCharsets.UTF_8));
                }
            }
            if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                return new Result(List.copyOf(command), -1, "no exit within " + TIMEOUT.toSeconds() + " s");
            }
            return new Result(List.copyOf(command), process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } catch (IOException e) {
            if (process != null) {
                process.destroyForcibly();
            }
            return new Result(List.copyOf(command), 127, e.getMessage() == null ? e.toString() : e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException("interrupted while running " + command, e);
        } finally {
            if (output != null) {
                try {
                    Files.deleteIfExists(output);
                } catch (IOException ignored) {
                    // a temporary file: the system cleans it
                }
            }
        }
    }
}
