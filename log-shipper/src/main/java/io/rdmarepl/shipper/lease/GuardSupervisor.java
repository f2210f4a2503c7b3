package io.rdmarepl.shipper.lease;

import io.rdmarepl.shipper.config.GuardMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sees to it that a lease guard watches the lease file while a lease counts: adopts one that runs (it holds the
 * file's lock), else starts one ({@code fence.guard=process}) or refuses ({@code external}), and starts a new one when
 * the last is gone and a lease counts that no guard fenced yet. Thread-safe.
 */
final class GuardSupervisor {
    private static final Logger LOG = LoggerFactory.getLogger(GuardSupervisor.class);
    /** How long a start waits for a guard to watch: a JVM starting on a busy host. */
    static final long START_TIMEOUT_MS = 20_000;
    /** A guard that has not looked for this long is stuck (an attempt takes at most two seconds). */
    static final long STALE_MS = 5_000;
    private static final long RESPAWN_BACKOFF_MS = 1_000;
    /** How long a shipper with {@code fence.guard=external} waits for the guard to hold the lock. */
    static final long EXTERNAL_WAIT_MS = 5_000;

    private final GuardSettings settings;
    private final GuardMode mode;
    private final LeaseFile file;
    private final List<String> javaOptions;
    private volatile Process started;
    private long nextStartNs;
    private volatile String lastWarning;
    private volatile GuardRecord guard = GuardRecord.EMPTY;

    /** @param javaOptions the guard's extra JVM options ({@link GuardLauncher#JAVA_OPTS_ENV}) */
    GuardSupervisor(GuardSettings settings, GuardMode mode, LeaseFile file, List<String> javaOptions) {
        this.settings = settings;
        this.mode = mode;
        this.file = file;
        this.javaOptions = javaOptions;
    }

    /**
     * Starts a guard unless one runs (holds the lock), without waiting for it.
     *
     * @throws IllegalStateException with {@code external} when none runs, or when one cannot be started
     */
    synchronized void begin() {
        if (mode == GuardMode.EXTERNAL) {
            // its unit may be starting alongside this shipper's
            long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(EXTERNAL_WAIT_MS);
            while (!lockHeld()) {
                if (System.nanoTime() - deadlineNs > 0) {
                    throw refusal();
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
            return;
        }
        if (lockHeld()) {
            return;
        }
        try {
            start();
        } catch (UncheckedIOException e) {
            throw new IllegalStateException(e.getMessage() + "; fence.lease.ms > 0 needs one", e);
        }
    }

    private IllegalStateException refusal() {
        return new IllegalStateException("fence.guard=external, but no lease guard holds " + settings.lockFile() + " after "
                + EXTERNAL_WAIT_MS / 1000 + " s: start it first (systemctl start rdmarepl-lease-guard, or rdmarepl lease-guard --config FILE), or set"
                + " fence.guard=process");
    }

    /**
     * Waits until a guard watches the lease for this shipper (one that looked after {@code sinceNs}, the moment this
     * shipper wrote its record), starting one when none runs. Holds no lock while it waits: the lease's checks go on.
     *
     * @throws IllegalStateException naming the lease file, the mode and what happened
     */
    void awaitWatching(long sinceNs) {
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MS);
        boolean adopted = started == null;
        while (true) {
            GuardRecord g = read();
            if (g.pid() != 0 && g.checkedNs() - sinceNs > 0 && g.watchedState() != LeaseState.RELEASED && LeaseGuardMain.alive(g.pid())) {
                LOG.info("lease guard pid {} {} {}", g.pid(), adopted ? "(already running) guards" : "started, guards", settings.file());
                return;
            }
            adopted &= !startUnlessOneRuns();
            if (System.nanoTime() - deadlineNs > 0) {
                throw new IllegalStateException("no lease guard watches " + settings.file() + " " + START_TIMEOUT_MS / 1000 + " s after "
                        + (adopted ? "this shipper found one holding " + settings.lockFile() : "it was started (pid " + started.pid() + ")")
                        + "; fence.lease.ms > 0 needs one");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    /**
     * While a shipper starts: a guard is started when neither the last one started runs nor another holds the lock.
     *
     * @return whether one was started now
     * @throws IllegalStateException when the last one started exited (it could not watch), or with {@code external}
     */
    private synchronized boolean startUnlessOneRuns() {
        if (started != null && started.isAlive() || lockHeld()) {
            return false;
        }
        if (started != null) {
            throw new IllegalStateException("the lease guard (pid " + started.pid() + ") exited with code " + started.exitValue()
                    + " before it watched " + settings.file() + " (its lines are above); fence.lease.ms > 0 needs one");
        }
        if (mode == GuardMode.EXTERNAL) {
            throw refusal();
        }
        try {
            start();
        } catch (UncheckedIOException e) {
            throw new IllegalStateException(e.getMessage() + "; fence.lease.ms > 0 needs one", e);
        }
        return true;
    }

    /**
     * One look, every lease check: while the lease counts ({@code state}) and the lapse of its last contact is not
     * fenced yet, a guard must run; one that is gone is replaced (at most once a second), or, with {@code external},
     * reported.
     */
    synchronized void watch(LeaseState state, long lastContactNs) {
        GuardRecord g = read();
        if (state != LeaseState.ARMED || g.fenced(lastContactNs)) {
            return;
        }
        if (started != null && started.isAlive() || LeaseGuardMain.alive(g.pid()) || lockHeld()) {
            lastWarning = null;
            return;
        }
        if (mode == GuardMode.EXTERNAL) {
            warnOnce("no lease guard holds " + settings.lockFile() + " (fence.guard=external): nothing fences the primary if this shipper"
                    + " is cut off or dies; start rdmarepl lease-guard");
            return;
        }
        if (System.nanoTime() - nextStartNs < 0) {
            return;
        }
        nextStartNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RESPAWN_BACKOFF_MS);
        try {
            String before = g.pid() == 0 ? "no lease guard runs" : "lease guard pid " + g.pid() + " is gone";
            start();
            LOG.warn("{} while the lease counts: started lease guard pid {}", before, started.pid());
        } catch (UncheckedIOException e) {
            warnOnce("cannot start a lease guard: " + e.getMessage() + "; nothing fences the primary if this shipper is cut off or dies");
        }
    }

    /** The guard's record as last read. */
    GuardRecord guard() {
        return guard;
    }

    /** The guard runs and looked at the lease within {@value #STALE_MS} ms. */
    boolean alive() {
        GuardRecord g = guard;
        return LeaseGuardMain.alive(g.pid()) && g.checkedWithin(System.nanoTime(), TimeUnit.MILLISECONDS.toNanos(STALE_MS));
    }

    GuardMode mode() {
        return mode;
    }

    GuardRecord read() {
        try {
            guard = file.readGuard();
        } catch (LeaseFileException e) {
            warnOnce(e.getMessage());
        }
        return guard;
    }

    private void start() {
        if (System.getenv("INVOCATION_ID") != null) {
            warnOnce("this shipper runs under systemd, which stops every process of its unit with it, the lease guard it starts"
                    + " too: run rdmarepl-lease-guard.service and set fence.guard=external (docs/deployment.md, \"From the distribution archive (systemd)\")");
        }
        try {
            started = GuardLauncher.start(settings, javaOptions);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a lease guard for " + settings.file() + ": " + e.getMessage(), e);
        }
    }

    private boolean lockHeld() {
        try {
            return GuardLock.held(settings.lockFile());
        } catch (IOException e) {
            warnOnce("cannot look at " + settings.lockFile() + ": " + e.getMessage());
            return false;
        }
    }

    private void warnOnce(String warning) {
        if (!warning.equals(lastWarning)) {
            LOG.warn(warning);
            lastWarning = warning;
        }
    }
}
