package io.rdmarepl.shipper.lease;

import io.rdmarepl.shipper.config.ShipperConfig;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lease guard's decisions, one {@link #check()} every {@value #CHECK_INTERVAL_MS} ms: it reads the shipper's record
 * in the lease file and, once the last contact is longer ago than the lease, fences the primary ({@link Fence},
 * retried every {@value #RETRY_INTERVAL_MS} ms until an attempt succeeds), writing what it saw and did into its own
 * record. A lapse, once seen, is fenced to the end, whatever the shipper writes meanwhile; each lapse (a last contact
 * that ran out) is fenced once, so a guard that starts after one was fenced does not fence it again.
 *
 * <p>A guard that {@code follows} its shipper (started by it) is done once the shipper released the lease (a clean
 * stop), once it fenced the primary, or once the shipper's process is gone and no lease counts. One that does not
 * (started apart, {@code rdmarepl lease-guard}) watches on for the next shipper.
 */
public final class LeaseGuard {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseGuard.class);
    /** How often the guard looks: the lease's check interval, part of its terms. */
    public static final long CHECK_INTERVAL_MS = ShipperConfig.LEASE_CHECK_MS;
    /**
     * A guard that follows its shipper and never read the shipper's record whole gives up on it after this many checks
     * (a second): a writer that died writing its first record. Before that, a torn first record means "being written".
     */
    static final int UNREAD_CHECKS_BEFORE_GIVING_UP = 10;
    public static final long RETRY_INTERVAL_MS = 200;

    /** One attempt to make the primary refuse writes. */
    @FunctionalInterface
    public interface Fence {
        /** @return the client sessions ended */
        int attempt() throws SQLException;
    }

    private final LeaseFile file;
    private final Fence fence;
    private final long pid;
    private final boolean follows;
    private final LongSupplier clock;
    private final LongPredicate processAlive;
    private GuardRecord record;
    private ShipperRecord shipper = ShipperRecord.EMPTY;
    private String readError;
    private long nextAttemptNs;
    private boolean seenFirst;
    /** Checks in a row that found the shipper's record torn before this guard ever read it whole. */
    private int unreadBeforeFirst;
    private boolean fencedHere;

    /**
     * @param follows      exit with the shipper (a guard it started) rather than watch on
     * @param clock        {@link System#nanoTime()}, or a test's
     * @param processAlive whether a process id runs
     */
    public LeaseGuard(LeaseFile file, Fence fence, long pid, boolean follows, LongSupplier clock, LongPredicate processAlive) {
        this.file = file;
        this.fence = fence;
        this.pid = pid;
        this.follows = follows;
        this.clock = clock;
        this.processAlive = processAlive;
        GuardRecord previous;
        try {
            previous = file.readGuard();
        } catch (LeaseFileException e) {
            LOG.warn("the previous lease guard's record in {} cannot be read ({}): starting from none", file.name(), e.getMessage());
            previous = GuardRecord.EMPTY;
        }
        // what an earlier guard fenced stays said: a restarted shipper must see it
        this.record = new GuardRecord(pid, clock.getAsLong(), previous.watchedState(), previous.watchedLeaseNs(),
                previous.watchedContactNs(), previous.fence(), previous.lapsedContactNs(), previous.fenceStartedNs(),
                previous.fenceDoneNs(), previous.attempts(), previous.lastError());
        file.writeGuard(record);
    }

    /** @return null to look again in {@value #CHECK_INTERVAL_MS} ms, or why this guard is done */
    public String check() {
        long nowNs = clock.getAsLong();
        read();
        if (fencing()) {
            tryFence(nowNs);
        } else if (shipper.lapsedAt(nowNs) && !record.fenced(shipper.lastContactNs())) {
            LOG.warn("lease ran out: no word from a standby or the coordinator for {} ms (fence.lease.ms {}, last contact: {}); shipper "
                            + "pid {} {}; fencing the primary", ms(nowNs - shipper.lastContactNs()), ms(shipper.leaseNs()), shipper.contact(),
                    shipper.pid(), processAlive.test(shipper.pid()) ? "runs" : "is gone");
            record = with(nowNs, FenceState.FENCING, shipper.lastContactNs(), nowNs, 0, 0, "");
            nextAttemptNs = nowNs;
            tryFence(nowNs);
        } else {
            record = with(nowNs, record.fence(), record.lapsedContactNs(), record.fenceStartedNs(), record.fenceDoneNs(),
                    record.attempts(), record.lastError());
        }
        file.writeGuard(record);
        return follows ? doneWhy() : null;
    }

    /** The record this guard last wrote. */
    public GuardRecord record() {
        return record;
    }

    private void read() {
        try {
            shipper = file.readShipper();
            readError = null;
            if (!seenFirst) {
                seenFirst = true;
                LOG.info("lease guard pid {} watches {}: lease {}, shipper pid {}{}", pid, file.name(), shipper.state().label(), shipper.pid(),
                        shipper.state() == LeaseState.ARMED ? ", last contact " + ms(clock.getAsLong() - shipper.lastContactNs())
                                + " ms ago (" + shipper.contact() + "), fence.lease.ms " + ms(shipper.leaseNs()) : "");
            }
        } catch (LeaseFileException e) {
            if (!seenFirst) {
                unreadBeforeFirst++;
            }
            if (!e.getMessage().equals(readError)) {
                LOG.warn("{}; going by the shipper's last good record (lease {}, last contact {})", e.getMessage(), shipper.state().label(),
                        shipper.contact());
            }
            readError = e.getMessage();
        }
    }

    private boolean fencing() {
        return record.fence() == FenceState.FENCING || record.fence() == FenceState.RETRYING;
    }

    private void tryFence(long nowNs) {
        if (nowNs - nextAttemptNs < 0) {
            record = with(nowNs, record.fence(), record.lapsedContactNs(), record.fenceStartedNs(), 0, record.attempts(), record.lastError());
            return;
        }
        int attempt = record.attempts() + 1;
        try {
            int ended = fence.attempt();
            long doneNs = clock.getAsLong();
            record = with(doneNs, FenceState.DONE, record.lapsedContactNs(), record.fenceStartedNs(), doneNs, attempt, record.lastError());
            fencedHere = true;
            LOG.warn("fenced: the primary is read-only now and {} client session(s) were ended (attempt {}, {} ms after the lease ran out)",
                    ended, attempt, ms(doneNs - record.lapsedContactNs() - shipper.leaseNs()));
        } catch (SQLException e) {
            String why = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
            if (!why.equals(record.lastError())) {
                LOG.warn("fence attempt {} failed, the primary may still take writes: {}; retrying every {} ms", attempt, why, RETRY_INTERVAL_MS);
            }
            long endNs = clock.getAsLong();
            nextAttemptNs = endNs + TimeUnit.MILLISECONDS.toNanos(RETRY_INTERVAL_MS);
            record = with(endNs, FenceState.RETRYING, record.lapsedContactNs(), record.fenceStartedNs(), 0, attempt, why);
        }
    }

    /** Following its shipper: why this guard is done, or null. */
    private String doneWhy() {
        if (fencing()) {
            return null; // a lapse is fenced to the end, released or not
        }
        if (fencedHere) {
            return "fenced the primary; the shipper's next start brings a guard of its own";
        }
        if (shipper.state() == LeaseState.RELEASED) {
            return "the shipper stopped cleanly and released the lease";
        }
        if (!seenFirst && unreadBeforeFirst < UNREAD_CHECKS_BEFORE_GIVING_UP) {
            // its shipper may be writing its first record right now (a writer descheduled mid-write on a busy host):
            // "gone" is decided from a record read, not from none
            return null;
        }
        boolean nothingCounts = shipper.state() == LeaseState.NONE || record.fenced(shipper.lastContactNs());
        if (nothingCounts && !processAlive.test(shipper.pid())) {
            return "shipper pid " + shipper.pid() + " is gone and no lease counts";
        }
        return null;
    }

    private GuardRecord with(long checkedNs, FenceState fenceState, long lapsedContactNs, long startedNs, long doneNs, int attempts, String error) {
        return new GuardRecord(pid, checkedNs, shipper.state(), shipper.leaseNs(), shipper.lastContactNs(), fenceState, lapsedContactNs,
                startedNs, doneNs, attempts, error);
    }

    private static long ms(long ns) {
        return TimeUnit.NANOSECONDS.toMillis(ns);
    }
}
