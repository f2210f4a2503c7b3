package io.rdmarepl.shipper.liveness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts the threads that see and report the primary's death under the real-time scheduler ({@code SCHED_FIFO}), at
 * {@code liveness.realtime.priority}: the postmaster watch, and the threads that answer the coordinator's
 * {@code GET /primary} long poll.
 *
 * <p>Why: a killed postmaster's children (backends, checkpointer, walwriter, ...) all wake as it dies and spend about a
 * millisecond each tearing down, on the primary's host, exactly when the watch must look and its answer must go out.
 * Under the kernel's fair scheduler (EEVDF) the threads reporting the death queued behind them: the shipper saw the
 * exit 12 to 27 ms after the kill, and a scheduler trace showed the answering thread waiting 8 ms for the CPU. In the
 * host-per-role failover benchmark (one CPU per host, alternating runs of 10-15 trials each way), SIGKILL to SUSPECT
 * took median 18.5-19 ms at normal priority, 16 with nice -10, and 10-11 with {@code SCHED_FIFO} 1: only the
 * real-time class runs first (docs/benchmarks.md). These threads sleep between 5 ms ticks and each wake does
 * microseconds of work, so they cannot starve the host.
 *
 * <p>The JDK has no call for a thread's scheduling policy: {@code chrt --fifo --reset-on-fork --pid PRIORITY TID}
 * (util-linux) sets it, once per thread, as the thread starts. It needs {@code CAP_SYS_NICE} or a real-time priority
 * limit ({@code RLIMIT_RTPRIO}, systemd's {@code LimitRTPRIO=}); without either the threads run at normal priority,
 * with one warning.
 */
public final class RealtimePriority {
    private static final Logger LOG = LoggerFactory.getLogger(RealtimePriority.class);
    private static final AtomicBoolean WARNED = new AtomicBoolean();
    private static final long CHRT_TIMEOUT_MS = 5_000;

    private RealtimePriority() {
    }

    /**
     * Moves the calling thread to {@code SCHED_FIFO} at {@code priority} (1-99); 0 leaves it as it is.
     *
     * @return why it could not, or empty when it runs at that priority now (or 0 asked for none)
     */
    public static Optional<String> raiseCurrentThread(int priority) {
        if (priority == 0) {
            return Optional.empty();
        }
        if (priority < 1 || priority > 99) {
            throw new IllegalArgumentException("liveness.realtime.priority must be 0..99, got " + priority);
        }
        String tid;
        try {
            String self = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString(); // "<pid>/task/<tid>"
            tid = self.substring(self.lastIndexOf('/') + 1);
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.of("no /proc/thread-self (not Linux?): " + e.getMessage());
        }
        // --reset-on-fork: a thread this one starts (a driver's cleaner, a pool's worker) runs at normal priority again
        List<String> command = List.of("chrt", "--fifo", "--reset-on-fork", "--pid", Integer.toString(priority), tid);
        String shown = "`" + String.join(" ", command) + "`";
        try {
            Process chrt = new ProcessBuilder(command).redirectErrorStream(true).start();
            // waited for before its output is read: a chrt that hangs must not hold the thread; its one line of
            // output fits in the pipe meanwhile
            if (!chrt.waitFor(CHRT_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                chrt.destroyForcibly();
                return Optional.of(shown + " did not end within " + CHRT_TIMEOUT_MS + " ms");
            }
            if (chrt.exitValue() != 0) {
                return Optional.of(shown + " failed (" + new String(chrt.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip() + ")");
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("cannot run " + shown + " (" + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted while running " + shown);
        }
    }

    /**
     * {@link #raiseCurrentThread}, with one warning per process when it could not: the shipper works on at normal
     * priority, only its report of a dead primary may come later.
     */
    public static void raiseOrWarn(int priority) {
        raiseCurrentThread(priority).ifPresent(why -> {
            if (WARNED.compareAndSet(false, true)) {
                LOG.warn("the primary's death may be reported late: its watch runs at normal priority, {}; allow the shipper "
                        + "real-time priority {} (systemd: LimitRTPRIO={}), or set liveness.realtime.priority=0", why, priority, priority);
            }
        });
    }

    /** Daemon threads named {@code name} that {@link #raiseOrWarn raise themselves} to {@code priority} as they start. */
    public static ThreadFactory threads(String name, int priority) {
        return task -> {
            Thread thread = new Thread(() -> {
                raiseOrWarn(priority);
                task.run();
            }, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
