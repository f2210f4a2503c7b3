package io.rdmarepl.shipper.lease;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.concurrent.atomic.AtomicLong;

/**
 * When the shipper last heard from a standby (its feedback heartbeat moved) or from the coordinator (it renewed
 * the lease). A shipper that hears from neither for longer than the lease is cut off: it stops shipping, and its lease
 * guard (another process, {@link LeaseGuard}) fences the primary, since a coordinator may be promoting a standby right
 * now. The lease counts from the first contact, or from where a previous shipper of this primary left it
 * ({@link #inherited}); only a real contact renews it, never a start.
 */
public final class Lease {
    private final long leaseNs;
    private final LongSupplier clock;
    private final AtomicLong lastContactNs = new AtomicLong();
    private volatile String lastContact = "none";
    private volatile boolean armed;
    /** Inherited, and ran out before this shipper started: no lapse of this shipper's until a contact renews it. */
    private volatile boolean lapsedBeforeStart;
    private volatile Listener listener = (nowNs, from) -> { };

    /** Told of every contact, on the thread that heard it (a standby handler: it must not block nor allocate). */
    @FunctionalInterface
    public interface Listener {
        void heard(long nowNs, String from);
    }

    /** @param leaseMs 0 turns the lease off */
    public Lease(long leaseMs) {
        this(leaseMs, System::nanoTime);
    }

    /** @param clock {@link System#nanoTime()}, or a test's */
    Lease(long leaseMs, LongSupplier clock) {
        this.leaseNs = TimeUnit.MILLISECONDS.toNanos(leaseMs);
        this.clock = clock;
    }

    /**
     * The lease a previous shipper left counting: it runs on from that shipper's last contact. One that ran out before
     * this shipper started is its guard's business only (it fences the primary); {@link #expiry()} tells of a lapse
     * while this shipper runs.
     */
    public static Lease inherited(long leaseMs, long lastContactNs, String from) {
        return inherited(leaseMs, lastContactNs, from, System::nanoTime);
    }

    static Lease inherited(long leaseMs, long lastContactNs, String from, LongSupplier clock) {
        Lease lease = new Lease(leaseMs, clock);
        lease.lastContactNs.set(lastContactNs);
        lease.lastContact = from + " (heard by an earlier shipper)";
        lease.lapsedBeforeStart = leaseMs > 0 && clock.getAsLong() - lastContactNs > lease.leaseNs;
        lease.armed = true;
        return lease;
    }

    /** Heard from {@code from} now: the lease counts from here. Any thread; allocates nothing. */
    public void heard(String from) {
        long nowNs = clock.getAsLong();
        lastContactNs.accumulateAndGet(nowNs, Math::max);
        lastContact = from;
        armed = true; // after the time: whoever reads it armed reads that time or a later one
        lapsedBeforeStart = false;
        listener.heard(nowNs, from);
    }

    /** {@code listener} is told of every contact from now on (the lease file, which the guard reads). */
    public void tell(Listener newListener) {
        this.listener = newListener;
    }

    /** The lease counts (a contact came, or was inherited). */
    public boolean armed() {
        return armed;
    }

    /** {@link System#nanoTime()} of the last contact; read after {@link #armed()}. */
    public long lastContactNs() {
        return lastContactNs.get();
    }

    /** Who that was: {@code standby b}, {@code coordinator}, {@code start}. */
    public String lastContact() {
        return lastContact;
    }

    public long leaseNs() {
        return leaseNs;
    }

    /** The lease is on and ran out while this shipper runs; the reason names the last contact. */
    public String expiry() {
        if (leaseNs == 0 || !armed || lapsedBeforeStart) {
            return null;
        }
        long silentNs = clock.getAsLong() - lastContactNs.get();
        if (silentNs <= leaseNs) {
            return null;
        }
        return "no word from a standby or the coordinator for " + TimeUnit.NANOSECONDS.toMillis(silentNs)
                + " ms (fence.lease.ms " + TimeUnit.NANOSECONDS.toMillis(leaseNs) + ", last contact: " + lastContact + ")";
    }
}
