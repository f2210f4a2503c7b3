package io.rdmarepl.coordinator.detect;

import java.net.URI;
import java.util.Collection;

/**
 * What watches the primary and judges it ({@link ProbingFailureDetector}: JDBC probe, the shipper's word of its
 * postmaster, the standbys' heartbeats). An interface so the state machine's tests can decide the verdict.
 */
public interface FailureDetector extends AutoCloseable {
    /** Probe {@code jdbcUrl} from now on (the primary changed); a no-op when it already does. */
    void probe(String jdbcUrl);

    /** Read the shipper at {@code shipperAdmin} (the current primary's), or none when null. */
    void readShipper(URI shipperAdmin);

    /** The verdict on {@code primary} now, given what the standbys report. */
    Verdict judge(String primary, Collection<StandbyView> standbys);

    /** What the primary's shipper said, recently, of its postmaster's exit; null when it saw none. */
    String postmasterExit();

    /** The primary's shipper said, recently, that it is fenced (it ships nothing). */
    boolean shipperFenced();

    /** The coordinator lifted the primary's shipper's fence: what was read of it before is stale. */
    void shipperFenceLifted();

    /** {@link #postmasterExit()}, waiting briefly for a report still on its way. */
    String awaitPostmasterExit();

    /** What the probe knows now: its failures, and the primary's WAL position when it last answered. */
    ProbeView probeView();

    /**
     * Holds the probe and the reads of the shipper until {@link #resume}. A failover holds them once its fence stands:
     * the verdict is taken, and until the new primary is named each probe would only open a connection to a dead port,
     * each read ask a gone shipper, on the standby's host, inside the clients' outage.
     */
    void hold();

    /** Ends a {@link #hold}: the next probe and read start now. */
    void resume();

    @Override
    void close();
}
