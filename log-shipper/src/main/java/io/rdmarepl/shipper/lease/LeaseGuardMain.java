package io.rdmarepl.shipper.lease;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.SQLException;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lease guard process: holds the lock of its lease file, then runs {@link LeaseGuard#check()} every
 * {@value LeaseGuard#CHECK_INTERVAL_MS} ms. As the shipper starts it ({@link GuardLauncher}): its settings on standard
 * input, the lease file path as its only argument (for {@code ps}), and it exits once its shipper no longer needs it.
 * {@code rdmarepl lease-guard} runs {@link #run} for a guard started apart, which watches on until stopped.
 */
public final class LeaseGuardMain {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseGuardMain.class);

    private LeaseGuardMain() {
    }

    public static void main(String[] args) {
        int code;
        try {
            code = run(GuardSettings.read(System.in), true, () -> false);
        } catch (IOException | RuntimeException e) {
            LOG.error("lease guard for {} cannot run: {}", args.length > 0 ? args[0] : "(no lease file named)", e.getMessage());
            code = 1;
        }
        System.exit(code);
    }

    /**
     * Guards the lease of {@code settings} until done ({@code follows}: its shipper no longer needs it) or {@code stop}.
     *
     * @return 0; a guard that follows returns 0 also when another guard holds the lock (that one guards)
     * @throws IllegalStateException when another guard holds the lock (not following), or the lease file is another
     *                               primary's or unreadable
     */
    public static int run(GuardSettings settings, boolean follows, BooleanSupplier stop) throws IOException {
        GuardLock lock = GuardLock.tryAcquire(settings.lockFile());
        if (lock == null) {
            if (follows) {
                LOG.info("another lease guard holds {}: that one guards the lease", settings.lockFile());
                return 0;
            }
            throw new IllegalStateException("another lease guard" + otherGuard(settings) + " holds " + settings.lockFile()
                    + ": one guard per lease file; stop that one first");
        }
        try (lock) {
            long pid = ProcessHandle.current().pid();
            AtomicReference<LeaseFile> watched = new AtomicReference<>();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> warnIfArmed(watched.get(), pid), "rdmarepl-lease-guard-stop"));
            boolean warm = false;
            while (true) {
                LeaseFile file = awaitFile(settings, follows, stop);
                if (file == null) {
                    return 0;
                }
                Object key = fileKey(settings.file());
                watched.set(file);
                LeaseGuard guard = new LeaseGuard(file, settings.fence(), pid, follows, System::nanoTime, LeaseGuardMain::alive);
                String done = guard.check();
                FenceState fence = guard.record().fence();
                if (!warm && done == null && fence != FenceState.FENCING && fence != FenceState.RETRYING) {
                    warmUpInBackground(settings); // an attempt under way logs in anyway
                    warm = true;
                }
                boolean replaced = false;
                while (done == null && !stop.getAsBoolean()) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(LeaseGuard.CHECK_INTERVAL_MS));
                    if (!Objects.equals(fileKey(settings.file()), key)) {
                        replaced = true;
                        break;
                    }
                    done = guard.check();
                }
                if (replaced && !follows) {
                    LOG.warn("{} was removed or replaced: this lease guard watches for the new one", settings.file());
                    continue;
                }
                LOG.info("lease guard pid {} for {} exits: {}", pid, settings.file(),
                        replaced ? "its lease file was removed or replaced" : done == null ? "stopped" : done);
                return 0;
            }
        }
    }

    /** The identity of the file at {@code path} (device and inode), or null when there is none. */
    private static Object fileKey(Path path) {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * The lease file, its header checked against {@code settings}; a guard started apart waits for a shipper to create
     * it (null when stopped meanwhile).
     */
    private static LeaseFile awaitFile(GuardSettings settings, boolean follows, BooleanSupplier stop) throws IOException {
        boolean said = false;
        while (!stop.getAsBoolean()) {
            try {
                LeaseFile file = LeaseFile.map(settings.file(), false);
                LeaseFile.Header header = file.readHeader();
                if (header.primaryHash() != LeaseFile.primaryHash(settings.primary())) {
                    throw new IllegalStateException(settings.file() + " is the lease of the primary at " + header.primary()
                            + ", this guard's configuration names " + settings.primary() + ": two shippers with one source.name"
                            + " on this host? Give them their own source.name or fence.lease.dir");
                }
                if (header.thisBoot()) {
                    return file;
                }
            } catch (NoSuchFileException e) {
                if (follows) {
                    throw new IllegalStateException(settings.file() + " does not exist: the shipper creates it before it starts its guard");
                }
            } catch (LeaseFileException e) {
                if (follows || !e.torn()) {
                    throw e;
                }
            }
            if (!said) {
                LOG.info("lease guard waits for a shipper to start a lease in {}", settings.file());
                said = true;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(LeaseGuard.CHECK_INTERVAL_MS));
        }
        return null;
    }

    /**
     * Loads the JDBC driver and logs in once, so the fence does not pay for that when the lease runs out; on a thread of
     * its own, since a primary that does not answer holds a login for seconds, and the checks must go on meanwhile.
     */
    private static void warmUpInBackground(GuardSettings settings) {
        Thread warmUp = new Thread(() -> {
            PrimaryFence.loadDriver();
            try {
                settings.fence().tryLogin();
            } catch (SQLException e) {
                LOG.warn("lease guard cannot log in to the primary {} now ({}); the fence is tried when the lease runs out",
                        settings.primary(), e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse(""));
            }
        }, "rdmarepl-lease-guard-warm-up");
        warmUp.setDaemon(true);
        warmUp.start();
    }

    private static void warnIfArmed(LeaseFile file, long pid) {
        if (file == null) {
            return;
        }
        try {
            ShipperRecord shipper = file.readShipper();
            GuardRecord guard = file.readGuard();
            if (shipper.state() == LeaseState.ARMED && !guard.fenced(shipper.lastContactNs())) {
                LOG.warn("lease guard pid {} stops while the lease in {} counts: nothing fences the primary until a guard runs again", pid,
                        file.name());
            }
        } catch (LeaseFileException e) {
            LOG.warn("lease guard pid {} stops; {}", pid, e.getMessage());
        }
    }

    private static String otherGuard(GuardSettings settings) {
        try {
            if (Files.exists(settings.file())) {
                long pid = LeaseFile.map(settings.file(), false).readGuard().pid();
                return pid == 0 ? "" : " (pid " + pid + ")";
            }
        } catch (IOException | LeaseFileException e) {
            // named without its pid
        }
        return "";
    }

    static boolean alive(long pid) {
        return pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
