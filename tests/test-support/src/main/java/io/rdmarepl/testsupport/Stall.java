package io.rdmarepl.testsupport;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Freezes processes with SIGSTOP for a moment, then SIGCONT: a stall, as a GC pause or a busy host makes one.
 * The signals come from one long-lived shell's built-in {@code kill}, so a stall lasts what was asked, not the
 * time it takes to start a process.
 */
public final class Stall implements AutoCloseable {
    private final Process shell;
    private final Writer commands;

    public Stall() throws IOException {
        this.shell = new ProcessBuilder("bash").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        this.commands = new OutputStreamWriter(shell.getOutputStream(), StandardCharsets.UTF_8);
    }

    /** Stops {@code pids} together, waits {@code length}, continues them; returns how long they were stopped, in µs. */
    public long freeze(List<Long> pids, Duration length) throws IOException, InterruptedException {
        long start = System.nanoTime();
        stop(pids);
        TimeUnit.NANOSECONDS.sleep(length.toNanos()); // the stall itself, as long as asked: not a wait for something
        resume(pids);
        return TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - start);
    }

    /** SIGSTOP to {@code pids} together, until {@link #resume}: a stall that lasts as long as the test needs. */
    public void stop(List<Long> pids) throws IOException {
        send("kill -STOP " + list(pids));
    }

    /** SIGCONT to {@code pids}. */
    public void resume(List<Long> pids) throws IOException {
        send("kill -CONT " + list(pids));
    }

    private static String list(List<Long> pids) {
        return String.join(" ", pids.stream().map(String::valueOf).toList());
    }

    /**
     * Whether {@code pid} is stopped (state {@code T} in {@code /proc/<pid>/stat}): a {@link #stop} or {@link #freeze}
     * took effect. False when there is no such process.
     */
    public static boolean stopped(long pid) {
        try {
            return StaleServers.processState(pid) == 'T';
        } catch (IOException gone) {
            return false;
        }
    }

    /** The postmaster and every backend it started. */
    public static List<Long> postgres(long postmasterPid) {
        List<Long> pids = new ArrayList<>();
        pids.add(postmasterPid);
        ProcessHandle.of(postmasterPid).ifPresent(p -> p.descendants().forEach(d -> pids.add(d.pid())));
        return pids;
    }

    private void send(String command) throws IOException {
        commands.write(command + "\n");
        commands.flush();
    }

    /** Lets the shell run what it was sent (the last SIGCONT above all) and exit at the end of its input. */
    @Override
    public void close() throws IOException {
        commands.close();
        try {
            if (!shell.waitFor(10, TimeUnit.SECONDS)) {
                shell.destroy();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            shell.destroy();
        }
    }
}
