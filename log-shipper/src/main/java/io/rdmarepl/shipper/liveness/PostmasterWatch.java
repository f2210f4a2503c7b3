package io.rdmarepl.shipper.liveness;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The primary's postmaster process, watched from the shipper's host through {@code /proc}. A killed postmaster
 * (SIGKILL, OOM killer, crash) takes 15 to 30 ms here to finish dying, tearing down its memory, and until it has,
 * its port accepts connections and its backends answer SQL; but the kernel marks it exiting ({@code PF_EXITING})
 * the moment the signal is delivered. The shipper stops its heartbeats then, and reports the exit on its admin
 * endpoint, so the coordinator knows of the death before any SQL check could.
 *
 * <p>Found from a session with the primary: the parent of that session's backend process, taken only when its
 * start time is within {@link #START_TOLERANCE} of {@code pg_postmaster_start_time()}. A primary on another host or
 * in another PID namespace, or behind a connection pooler, has no such process here, and then there is no watch
 * (the heartbeats stop when the SQL checks fail, as before).
 *
 * <p>Layout read: {@code /proc/<pid>/stat} is {@code pid (comm) state ppid ...}: field 3 {@code state}, field 4
 * {@code ppid}, field 9 {@code flags} (decimal; {@code PF_EXITING} = 0x4, set when the process starts to exit and
 * never cleared), field 22 {@code starttime} (clock ticks since boot); fields are counted after the last
 * {@code ')'} because {@code comm} may hold spaces and parentheses.
 */
public final class PostmasterWatch {
    static final Duration START_TOLERANCE = Duration.ofSeconds(2);
    private static final int STATE_FIELD = 3;
    private static final int PPID_FIELD = 4;
    private static final int FLAGS_FIELD = 9;
    private static final long PF_EXITING = 0x4;
    private static final int STARTTIME_FIELD = 22;

    private final long pid;
    private final long startTicks;
    /**
     * Held open: one pread per check instead of open, read and close, and no PID reuse to tell apart, since a
     * reused PID is another file. Once the process is reaped, reading it fails (ESRCH).
     */
    private final FileChannel statFile;
    private final ByteBuffer statBytes = ByteBuffer.allocate(1024);
    private volatile String exit;

    private PostmasterWatch(long pid, long startTicks, FileChannel statFile) {
        this.pid = pid;
        this.startTicks = startTicks;
        this.statFile = statFile;
    }

    /**
     * @param backendPid      the pid of a backend of the primary, as the primary reported it
     * @param postmasterStart {@code pg_postmaster_start_time()}, as the primary reported it
     * @return the watch of the postmaster behind that backend, or why there is none
     */
    public static Found find(long backendPid, Instant postmasterStart) {
        Optional<String[]> backend = stat(backendPid);
        if (backend.isEmpty()) {
            return Found.none("the primary's backend process " + backendPid + " is not visible from this host");
        }
        long parent = Long.parseLong(field(backend.get(), PPID_FIELD));
        Optional<String[]> postmaster = stat(parent);
        Optional<Instant> started = ProcessHandle.of(parent).flatMap(p -> p.info().startInstant());
        if (postmaster.isEmpty() || started.isEmpty()
                || Duration.between(started.get(), postmasterStart).abs().compareTo(START_TOLERANCE) > 0) {
            return Found.none("process " + parent + " (parent of backend " + backendPid + ") is not the primary's postmaster"
                    + " started at " + postmasterStart + " (another host or PID namespace, or a pooler)");
        }
        FileChannel statFile;
        try {
            statFile = FileChannel.open(statPath(parent), StandardOpenOption.READ);
        } catch (IOException e) {
            return Found.none("cannot open " + statPath(parent) + ": " + e.getMessage());
        }
        PostmasterWatch watch = new PostmasterWatch(parent, Long.parseLong(field(postmaster.get(), STARTTIME_FIELD)), statFile);
        if (watch.check()) {
            return Found.none("process " + parent + " exited while it was being found: " + watch.exit());
        }
        return new Found(watch, null);
    }

    /**
     * One pread of {@code /proc/<pid>/stat}, parsed in place without allocating: is the postmaster exiting, a zombie,
     * dead or gone? Sticky. One thread calls it (every heartbeat interval); any may read {@link #exited()}.
     */
    public boolean check() {
        if (exit != null) {
            return true;
        }
        String found = readExit();
        if (found != null) {
            exit = found;
            try {
                statFile.close();
            } catch (IOException ignored) {
                // the process is gone; nothing to release but the descriptor
            }
        }
        return found != null;
    }

    /** Why the process counts as exited, or null while it runs. */
    private String readExit() {
        int length;
        try {
            length = statFile.read(statBytes.clear(), 0);
        } catch (IOException e) {
            return "process " + pid + " is gone";
        }
        byte[] bytes = statBytes.array();
        int at = length;
        while (--at >= 0 && bytes[at] != ')') {
            // comm may hold spaces and parentheses: the fields start after the last ')'
        }
        if (at < 0) {
            return "process " + pid + " is gone";
        }
        at += 2;
        byte state = bytes[at];
        long flags = -1;
        long start = -1;
        for (int field = STATE_FIELD; at < length && field <= STARTTIME_FIELD; field++) {
            long value = 0;
            int from = at;
            while (at < length && bytes[at] >= '0' && bytes[at] <= '9') {
                value = value * 10 + (bytes[at++] - '0');
            }
            if (field == FLAGS_FIELD && at > from) {
                flags = value;
            } else if (field == STARTTIME_FIELD && at > from) {
                start = value;
            }
            while (at < length && bytes[at] != ' ') {
                at++; // a non-numeric field (the state) or a negative one
            }
            at++;
        }
        if (start != startTicks) {
            return "process " + pid + " is another process now";
        }
        if (state == 'Z' || state == 'X' || state == 'x') {
            return "process " + pid + " exited (state " + (char) state + ")";
        }
        if (flags >= 0 && (flags & PF_EXITING) != 0) {
            return "process " + pid + " is exiting (killed or stopped, tearing down)";
        }
        return null;
    }

    /** What the last {@link #check()} found: a volatile read, free to call on any path. */
    public boolean exited() {
        return exit != null;
    }

    public long pid() {
        return pid;
    }

    /** How it exited, or null while it runs. */
    public String exit() {
        return exit;
    }

    /** The fields after {@code comm}: index 0 is field 3 (state). */
    private static Optional<String[]> stat(long pid) {
        try {
            String line = new String(Files.readAllBytes(statPath(pid)), StandardCharsets.US_ASCII);
            int end = line.lastIndexOf(')');
            return end < 0 ? Optional.empty() : Optional.of(line.substring(end + 2).trim().split(" "));
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // gone, or no /proc (not Linux)
        }
    }

    private static Path statPath(long pid) {
        return Path.of("/proc", Long.toString(pid), "stat");
    }

    private static String field(String[] afterComm, int field) {
        return afterComm[field - STATE_FIELD];
    }

    /** A watch, or why there is none. */
    public record Found(PostmasterWatch watch, String whyNot) {
        static Found none(String whyNot) {
            return new Found(null, whyNot);
        }
    }
}
