package io.rdmarepl.shipper.lease;

import io.rdmarepl.shipper.config.ShipperConfig;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shipper's side of a lease that outlives it: the {@link Lease} it renews on every contact, written into the
 * lease file on the thread that heard the contact, where a lease guard ({@link GuardSupervisor} sees that one runs)
 * fences the primary once the last contact is longer ago than the lease, whether this shipper still runs or not.
 * Every {@value LeaseGuard#CHECK_INTERVAL_MS} ms a check of its own looks after the guard and stops the shipping when
 * the lease ran out in this shipper's own view.
 *
 * <p>A shipper that starts where an earlier one of this primary left the lease counting (it died, or exited on a lost
 * standby) takes that lease over as it stands: it counts on from the earlier shipper's last contact, and only a
 * standby's feedback or a coordinator's renewal renews it, never the start. A lease that did not count (a new file, a
 * clean stop) starts counting once this shipper is up. A clean stop ({@link #release()}) lets the guard go without
 * fencing anything.
 */
public final class GuardedLease {
    private static final Logger LOG = LoggerFactory.getLogger(GuardedLease.class);
    private static final long MIN_WRITE_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Contact texts in UTF-8, by text: a handful (the standbys' names, the coordinator, start). */
    private static final Map<String, byte[]> CONTACT_TEXTS = new ConcurrentHashMap<>();

    private final LeaseFile file;
    private final Lease lease;
    private final GuardSupervisor supervisor;
    private final String fencedBefore;
    private final long startedNs;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "rdmarepl-lease");
        thread.setDaemon(true);
        return thread;
    });
    /** The record as last written, but for the contact on every renewal: {@link #writtenContactNs}, {@link #lastContactText}. */
    private volatile ShipperRecord published;
    private volatile long writtenContactNs;
    private volatile String lastContactText;
    private final long pid = ProcessHandle.current().pid();
    private final long leaseNs;
    private volatile Runnable onExpiry = () -> { };
    private volatile boolean closed;

    private GuardedLease(LeaseFile file, Lease lease, GuardSupervisor supervisor, ShipperRecord published, String fencedBefore) {
        this.file = file;
        this.lease = lease;
        this.supervisor = supervisor;
        this.published = published;
        this.writtenContactNs = published.lastContactNs();
        this.lastContactText = published.contact();
        this.leaseNs = lease.leaseNs();
        this.fencedBefore = fencedBefore;
        this.startedNs = published.publishedNs();
        lease.tell(this::heard);
    }

    /**
     * Opens the lease file of {@code config} (creating it, or starting it over when it is from an earlier boot or of
     * another primary that no guard watches and no lease holds), takes over the lease an earlier shipper left, writes
     * this shipper's pid, starts a lease guard when none runs and begins publishing. {@link #awaitGuard()} waits for
     * the guard.
     *
     * @throws IllegalStateException naming the file when it is another primary's, unreadable, or cannot be created
     */
    public static GuardedLease open(ShipperConfig config) {
        return open(config, GuardLauncher.optionsFromEnvironment());
    }

    /** {@link #open(ShipperConfig)} with the guard's extra JVM options given. */
    static GuardedLease open(ShipperConfig config, List<String> guardJavaOptions) {
        GuardSettings settings = GuardSettings.of(config);
        LeaseFile file;
        try {
            file = LeaseFile.map(settings.file(), true);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create or map the lease file " + settings.file() + " (fence.lease.dir): " + e, e);
        }
        ShipperRecord previous = previousLease(file, settings);
        GuardRecord guard = readGuard(file);
        long leaseMs = config.fenceLeaseMs();
        Lease lease;
        String fencedBefore = null;
        if (previous.state() == LeaseState.ARMED) {
            lease = Lease.inherited(leaseMs, previous.lastContactNs(), previous.contact());
            long silentMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - previous.lastContactNs());
            if (guard.fenced(previous.lastContactNs())) {
                fencedBefore = "the lease guard fenced the primary before this shipper started (the lease of shipper pid " + previous.pid()
                        + " ran out: no word from a standby or the coordinator since " + previous.contact() + ", " + silentMs
                        + " ms ago); the primary stays read-only until a failover, or until an operator who knows no standby was"
                        + " promoted lifts the fence and restarts this shipper (docs/operations.md, \"The primary is read-only: its lease ran out\")";
            } else if (TimeUnit.MILLISECONDS.toNanos(silentMs) > lease.leaseNs()) {
                LOG.warn("the lease shipper pid {} left counting ran out {} ms ago (last contact: {}): its lease guard fences the primary",
                        previous.pid(), silentMs - leaseMs, previous.contact());
            } else {
                LOG.warn("taking over the lease shipper pid {} left counting: last contact {} ms ago ({}); only a standby's feedback or"
                        + " the coordinator's renewal renews it", previous.pid(), silentMs, previous.contact());
            }
        } else {
            lease = new Lease(leaseMs);
        }
        long nowNs = System.nanoTime();
        ShipperRecord own = previous.state() == LeaseState.ARMED
                ? previous.withPid(ProcessHandle.current().pid(), nowNs)
                : new ShipperRecord(ProcessHandle.current().pid(), LeaseState.NONE, previous.leaseNs(), previous.lastContactNs(),
                        previous.contact(), nowNs);
        file.writeShipper(own);
        GuardSupervisor supervisor = new GuardSupervisor(settings, config.fenceGuard(), file, guardJavaOptions);
        supervisor.begin(); // the guard starts while the shipper does; awaitGuard() waits for it
        GuardedLease guarded = new GuardedLease(file, lease, supervisor, own, fencedBefore);
        guarded.ticker.scheduleWithFixedDelay(guarded::tick, 0, LeaseGuard.CHECK_INTERVAL_MS, TimeUnit.MILLISECONDS);
        return guarded;
    }

    /**
     * The record an earlier shipper of this primary left, or {@link ShipperRecord#EMPTY} after the file was
     * (re)initialised for this boot and primary.
     */
    private static ShipperRecord previousLease(LeaseFile file, GuardSettings settings) {
        LeaseFile.Header header;
        try {
            header = file.initialised() ? file.readHeader() : null;
        } catch (LeaseFileException e) {
            if (!e.torn()) {
                throw new IllegalStateException(e.getMessage() + "; if no shipper or lease guard of this primary runs, delete it", e);
            }
            header = null;
        }
        if (header == null || !header.thisBoot()) {
            if (header != null) {
                LOG.info("{} is from an earlier boot of this host: starting it over", file.name());
            }
            file.initialise(BootId.CURRENT, settings.primary());
            return ShipperRecord.EMPTY;
        }
        ShipperRecord previous = readShipper(file);
        if (header.primaryHash() != LeaseFile.primaryHash(settings.primary())) {
            boolean guarded = lockHeld(settings);
            if (guarded || previous.state() == LeaseState.ARMED) {
                throw new IllegalStateException(file.name() + " is the lease of the primary at " + header.primary() + ", and "
                        + (guarded ? "a lease guard watches it" : "it counts (its shipper, pid " + previous.pid() + ", did not release it)")
                        + "; this shipper's primary is " + settings.primary() + ". Two shippers with one source.name on this host? Give"
                        + " them their own source.name or fence.lease.dir; if " + header.primary() + " no longer needs the file, delete it");
            }
            LOG.info("{} was the lease of the primary at {}, released: starting it over for {}", file.name(), header.primary(), settings.primary());
            file.initialise(BootId.CURRENT, settings.primary());
            return ShipperRecord.EMPTY;
        }
        return previous;
    }

    /**
     * The shipper's record; one torn for good (its writer died writing it) or damaged counts as the guard last saw it,
     * or, when the guard saw nothing, as a lease that ran out already: the guard fences rather than trust nothing.
     */
    private static ShipperRecord readShipper(LeaseFile file) {
        try {
            return file.readShipper();
        } catch (LeaseFileException e) {
            GuardRecord guard = readGuard(file);
            if (guard.watchedState() == LeaseState.NONE && guard.pid() == 0) {
                LOG.warn("{}; no guard saw the lease either: taking it for a lease that ran out", e.getMessage());
                return new ShipperRecord(0, LeaseState.ARMED, 0, 0, "unknown (unreadable record)", 0);
            }
            LOG.warn("{}; going by what the lease guard saw last", e.getMessage());
            return new ShipperRecord(0, guard.watchedState(), guard.watchedLeaseNs(), guard.watchedContactNs(), "as the guard saw it", 0);
        }
    }

    private static GuardRecord readGuard(LeaseFile file) {
        try {
            return file.readGuard();
        } catch (LeaseFileException e) {
            LOG.warn("{}", e.getMessage());
            return GuardRecord.EMPTY;
        }
    }

    private static boolean lockHeld(GuardSettings settings) {
        try {
            return GuardLock.held(settings.lockFile());
        } catch (IOException e) {
            return true; // cannot tell: take it as watched
        }
    }

    /** @throws IllegalStateException when no guard watches in time: fence.lease.ms > 0 needs one */
    public void awaitGuard() {
        supervisor.awaitWatching(startedNs);
    }

    /** The lease to renew on every contact. */
    public Lease lease() {
        return lease;
    }

    /** Why this shipper starts fenced: the guard fenced the primary for the lease it took over; else null. */
    public String fencedBefore() {
        return fencedBefore;
    }

    /** What to do once the lease ran out in this shipper's own view (stop shipping); called on the lease's thread. */
    public void onExpiry(Runnable action) {
        this.onExpiry = action;
    }

    /** A lease that did not count yet (a new file, a clean stop before) counts from now: this shipper is up. */
    public void countFromNow() {
        if (!lease.armed()) {
            lease.heard("start");
        }
    }

    private void tick() {
        try {
            publish();
            supervisor.watch(published.state(), writtenContactNs);
            if (lease.expiry() != null) {
                onExpiry.run();
            }
        } catch (RuntimeException e) {
            LOG.warn("lease check failed: {}", e.toString());
        }
    }

    /**
     * Every contact, on the thread that heard it: the lease file says what the shipper knows, so its guard and its
     * own check agree, and a shipper whose threads stall does not look renewed. At most one write a millisecond; the
     * next {@link #tick()} writes one held back.
     */
    private void heard(long nowNs, String from) {
        if (nowNs - writtenContactNs < MIN_WRITE_INTERVAL_NS || closed) {
            return;
        }
        synchronized (this) {
            if (!closed && nowNs - writtenContactNs > 0) {
                write(LeaseState.ARMED, nowNs, from, nowNs);
            }
        }
    }

    private synchronized void publish() {
        if (closed || !lease.armed()) {
            return;
        }
        long contactNs = lease.lastContactNs();
        if (published.state() != LeaseState.ARMED || contactNs != writtenContactNs) {
            write(LeaseState.ARMED, contactNs, lease.lastContact(), System.nanoTime());
        }
    }

    /** Writes the shipper's record; the contact's text is encoded once per text (a standby's, the coordinator's). */
    private void write(LeaseState state, long contactNs, String from, long nowNs) {
        byte[] text = CONTACT_TEXTS.computeIfAbsent(from, f -> LeaseFile.utf8(f, LeaseFileDescriptor.CONTACT_TEXT_CAPACITY));
        file.writeShipper(pid, state, leaseNs, contactNs, text, nowNs);
        writtenContactNs = contactNs;
        if (published.state() != state || state != LeaseState.ARMED) {
            published = new ShipperRecord(pid, state, leaseNs, contactNs, from, nowNs);
        }
        lastContactText = from;
    }

    /** A clean stop: the guard goes without fencing (it finishes a fence it began). */
    public synchronized void release() {
        if (closed) {
            return;
        }
        publish();
        stop();
        write(LeaseState.RELEASED, writtenContactNs, lastContactText, System.nanoTime());
        LOG.info("lease released ({}): its guard lets the primary be", file.name());
    }

    /**
     * The shipper stops for a reason a restart must fix (or did not start): the lease keeps counting from the last
     * contact and its guard keeps watching. One that never counted is released, so a guard started for it goes.
     */
    public synchronized void abandon() {
        if (closed) {
            return;
        }
        publish();
        stop();
        if (published.state() == LeaseState.NONE) {
            write(LeaseState.RELEASED, writtenContactNs, lastContactText, System.nanoTime());
        } else {
            LOG.warn("stopping with the lease counting (last contact: {}): its guard fences the primary unless a shipper hears from a"
                    + " standby or the coordinator within fence.lease.ms", lease.lastContact());
        }
    }

    private void stop() {
        closed = true;
        ticker.shutdownNow();
    }

    /**
     * {@code mode} (process, external), {@code file}, {@code guard_pid}, {@code guard_alive}, {@code guard_checked_age_ms},
     * {@code lease_state}, {@code last_contact}, {@code last_contact_age_ms}, {@code fence} (what the guard did last,
     * for this lease or an earlier one) and {@code fence_done_age_ms}.
     */
    public Map<String, Object> status() {
        GuardRecord guard = supervisor.read();
        long nowNs = System.nanoTime();
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("mode", supervisor.mode().text());
        status.put("file", file.name());
        status.put("guard_pid", guard.pid() == 0 ? null : guard.pid());
        status.put("guard_alive", supervisor.alive());
        status.put("guard_checked_age_ms", guard.pid() == 0 ? null : TimeUnit.NANOSECONDS.toMillis(nowNs - guard.checkedNs()));
        status.put("lease_state", published.state().label());
        status.put("last_contact", lease.armed() ? lease.lastContact() : null);
        status.put("last_contact_age_ms", lease.armed() ? TimeUnit.NANOSECONDS.toMillis(nowNs - lease.lastContactNs()) : null);
        status.put("fence", guard.fence().label());
        status.put("fence_done_age_ms", guard.fenceDoneNs() == 0 ? null : TimeUnit.NANOSECONDS.toMillis(nowNs - guard.fenceDoneNs()));
        return status;
    }

    /**
     * The guard's fence of the primary for this lease: {@code state} (not needed, fencing, retrying, done: the lapse of
     * this lease's last contact is fenced), {@code attempts}, {@code last_error}. A fence of an earlier lapse, after which
     * a contact renewed the lease, is not this lease's ({@code lease_guard.fence} in {@link #status()} shows it).
     */
    public Map<String, Object> selfFenceStatus() {
        GuardRecord guard = supervisor.read();
        boolean fencing = guard.fence() == FenceState.FENCING || guard.fence() == FenceState.RETRYING;
        boolean ours = fencing || guard.fenced(writtenContactNs);
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("state", ours ? guard.fence().label() : FenceState.NOT_NEEDED.label());
        status.put("attempts", ours ? guard.attempts() : 0);
        status.put("last_error", !ours || guard.lastError().isEmpty() ? null : guard.lastError());
        return status;
    }
}
