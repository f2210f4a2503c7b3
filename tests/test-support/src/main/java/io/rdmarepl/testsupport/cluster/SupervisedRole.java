package io.rdmarepl.testsupport.cluster;

import io.rdmarepl.testsupport.net.NetHost;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A role process kept running as the packaged systemd units keep it ({@code packaging/systemd}: {@code
 * Restart=on-failure}, {@code RestartSec} of the units: 200 ms for the shipper, 2 s for the others, exit 143 after SIGTERM a success): when it exits with a failure it is
 * started again with the same configuration 2 s later, its output in a new log file ({@code <label>-<n>.log}). A
 * shipper that stopped shipping on purpose ("restart the shipper") comes back, as in production.
 */
public final class SupervisedRole {
    public static final Duration RESTART_DELAY = Duration.ofSeconds(2);
    /** The shipper's unit restarts it sooner: its lease ({@code fence.lease.ms}) must not run out meanwhile. */
    public static final Duration SHIPPER_RESTART_DELAY = Duration.ofMillis(200);
    private static final int SIGTERM_EXIT = 143;

    private final String role;
    private final String label;
    private final Path config;
    private final Path directory;
    private final NetHost host;
    private final List<String> jvmOptions;
    private final AtomicInteger starts = new AtomicInteger();
    private final Thread watcher;
    private volatile RoleProcess current;
    private volatile boolean stopping;
    private volatile String lastExit = "none";

    /**
     * Starts the role on {@code host} and supervises it.
     *
     * @param directory  where its log files go
     * @param jvmOptions of each of its JVMs ({@link RoleProcess#SMALL_JVM}, say)
     */
    public SupervisedRole(String role, String label, Path config, Path directory, NetHost host, List<String> jvmOptions) {
        this.role = role;
        this.label = label;
        this.config = config;
        this.directory = directory;
        this.host = host;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.current = startOnce();
        this.watcher = new Thread(this::supervise, "rdmarepl-supervisor-" + label);
        watcher.setDaemon(true);
        watcher.start();
    }

    /** The process running now (or the one that exited last, while a restart is pending). */
    public RoleProcess current() {
        return current;
    }

    /** Restarts after a failure so far. */
    public int restarts() {
        return starts.get() - 1;
    }

    public String label() {
        return label;
    }

    /** SIGTERM and no restart; SIGKILL after {@code timeout}. */
    public void stop(Duration timeout) throws InterruptedException {
        stopping = true;
        watcher.interrupt();
        watcher.join(timeout.toMillis());
        current.stop(timeout);
    }

    /** Its current log's tail, with how often it was restarted and why it last exited. */
    public String tail() {
        return current.tail() + "(" + label + ": " + restarts() + " restart(s), last exit " + lastExit + ")\n";
    }

    private RoleProcess startOnce() {
        int n = starts.incrementAndGet();
        return RoleProcess.start(role, label + " #" + n + " on " + host.name(), config, directory.resolve(label + "-" + n + ".log"), host,
                jvmOptions);
    }

    private void supervise() {
        while (!stopping) {
            OptionalInt exit;
            try {
                exit = current.awaitExit(Duration.ofMillis(200));
            } catch (IllegalStateException interrupted) { // by stop()
                return;
            }
            if (exit.isEmpty() || stopping) {
                continue;
            }
            lastExit = exit.getAsInt() + " from " + current;
            if (exit.getAsInt() == 0 || exit.getAsInt() == SIGTERM_EXIT) {
                return;
            }
            try {
                // the supervisor's back-off before a restart, as systemd's RestartSec: not a wait for something
                Thread.sleep(("ship".equals(role) ? SHIPPER_RESTART_DELAY : RESTART_DELAY).toMillis());
            } catch (InterruptedException e) {
                return;
            }
            if (!stopping) {
                current = startOnce();
            }
        }
    }
}
