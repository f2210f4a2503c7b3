package io.rdmarepl.coordinator.machine;

import io.rdmarepl.coordinator.detect.FailureDetector;
import io.rdmarepl.coordinator.detect.ProbeView;
import io.rdmarepl.coordinator.detect.StandbyView;
import io.rdmarepl.coordinator.detect.Verdict;
import java.net.URI;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/** A detector whose verdict the test sets; it remembers what it was told to probe. */
final class FakeDetector implements FailureDetector {
    private volatile Verdict verdict = new Verdict(false, "primary healthy (fake detector)", 0);
    private volatile String probed;
    private volatile URI shipper;
    private volatile Predicate<URI> fencedShippers = uri -> false;
    private volatile boolean held;
    private volatile boolean exitAskedWhileHeld;
    private final AtomicInteger holds = new AtomicInteger();

    void primaryFailed() {
        verdict = new Verdict(true, "primary failed 2 probe(s) and no standby received a heartbeat (fake detector)", 40);
    }

    void primaryHealthy() {
        verdict = new Verdict(false, "primary healthy (fake detector)", 0);
    }

    /** Whether the shipper at an admin URI says it is fenced (as the real detector's long poll reads it). */
    void fencedShippers(Predicate<URI> fenced) {
        fencedShippers = fenced;
    }

    /** Whether the probe and the shipper's reads are held now. */
    boolean held() {
        return held;
    }

    /** How many times they were held. */
    int holds() {
        return holds.get();
    }

    /** The JDBC URL it probes now. */
    String probed() {
        return probed;
    }

    @Override
    public void hold() {
        holds.incrementAndGet();
        held = true;
    }

    @Override
    public void resume() {
        held = false;
    }

    /** Whether the postmaster's exit was asked for while held: the fence must read it before the hold. */
    boolean exitAskedWhileHeld() {
        return exitAskedWhileHeld;
    }

    @Override
    public void probe(String jdbcUrl) {
        probed = jdbcUrl;
    }

    @Override
    public void readShipper(URI shipperAdmin) {
        shipper = shipperAdmin;
    }

    @Override
    public Verdict judge(String primary, Collection<StandbyView> standbys) {
        return verdict;
    }

    @Override
    public String postmasterExit() {
        exitAskedWhileHeld |= held;
        return null;
    }

    @Override
    public boolean shipperFenced() {
        URI now = shipper;
        return now != null && fencedShippers.test(now);
    }

    @Override
    public void shipperFenceLifted() {
    }

    @Override
    public String awaitPostmasterExit() {
        exitAskedWhileHeld |= held;
        return null;
    }

    @Override
    public ProbeView probeView() {
        return new ProbeView(probed, verdict.primaryFailed() ? 2 : 0, null, 0, 0, "0/3000060");
    }

    @Override
    public void close() {
    }
}
