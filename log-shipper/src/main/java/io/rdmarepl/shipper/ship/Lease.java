package io.rdmarepl.shipper.ship;

import java.util.concurrent.TimeUnit;

/**
 * When the shipper last heard from a standby (its feedback heartbeat moved) or from the coordinator (it renewed
 * the lease). A shipper that hears from neither for longer than the lease is cut off: it fences itself, since a
 * coordinator may be promoting a standby right now.
 */
public final class Lease {
    private final long leaseNs;
    private volatile long lastContactNs = System.nanoTime();
    private volatile String lastContact = "start";
    private volatile boolean armed;

    /** @param leaseMs 0 turns the lease off */
    public Lease(long leaseMs) {
        this.leaseNs = TimeUnit.MILLISECONDS.toNanos(leaseMs);
    }

    /** From now on the lease can run out (once the shipper runs: starting may take longer than the lease). */
    public void arm() {
        heard("start");
        armed = true;
    }

    public void heard(String from) {
        lastContactNs = System.nanoTime();
        lastContact = from;
    }

    /** The lease is on and ran out; the reason names the last contact. */
    public String expiry() {
        if (leaseNs == 0 || !armed) {
            return null;
        }
        long silentNs = System.nanoTime() - lastContactNs;
        if (silentNs <= leaseNs) {
            return null;
        }
        return "no word from a standby or the coordinator for " + TimeUnit.NANOSECONDS.toMillis(silentNs)
                + " ms (fence.lease.ms " + TimeUnit.NANOSECONDS.toMillis(leaseNs) + ", last contact: " + lastContact + ")";
    }
}
