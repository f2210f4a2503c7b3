package io.rdmarepl.coordinator.detect;

import io.rdmarepl.coordinator.roles.RoleClient;
import java.net.URI;
import java.time.Duration;
import java.util.Collection;

/**
 * Everything that watches the primary, together: its JDBC probe ({@link PrimaryProbe}), what its shipper says of
 * its postmaster ({@link PostmasterReport}), and the rule that turns those and the standbys' heartbeats into a
 * {@link Verdict} ({@link Detection}). The coordinator points it at the current primary and asks for a verdict
 * every cycle, and sooner when {@code wake} runs: the report of the postmaster's exit starts the probe that
 * confirms it at once, and a failed probe wakes the coordinator, so the news crosses no polling interval.
 */
public final class ProbingFailureDetector implements FailureDetector {
    private final Detection detection;
    private final PrimaryProbe probe;
    private final PostmasterReport postmasterReport;
    private final Runnable wake;

    /**
     * @param probeTimeout  a probe unanswered this long counts as failed
     * @param heartbeat     the heartbeat silence that, with the failed probes, fails the primary
     * @param longSilence   a silence that fails it with the failed probes however long they failed before (the lease)
     * @param wake          asks the coordinator for a verdict now (any thread)
     */
    public ProbingFailureDetector(String primaryJdbcUrl, String user, String password, RoleClient roles, Duration interval,
                           Duration probeTimeout, int probeFailures, Duration heartbeat, Duration longSilence, Runnable wake) {
        this.detection = new Detection(heartbeat, probeFailures, longSilence);
        this.wake = wake;
        // the report's thread calls back only once it has a target (readShipper): the probe exists by then
        this.postmasterReport = new PostmasterReport(roles, interval, this::postmasterExitReported);
        this.probe = new PrimaryProbe(primaryJdbcUrl, user, password, interval, probeTimeout, postmasterReport::postmasterExited, wake);
    }

    /** On the report's thread, at the news: the confirming probe starts now, and the coordinator decides on it. */
    private void postmasterExitReported() {
        probe.suspect();
        wake.run();
    }

    /** Probe {@code jdbcUrl} from now on (the primary changed); a no-op when it already does. */
    @Override
    public void probe(String jdbcUrl) {
        probe.retarget(jdbcUrl);
    }

    /** Read the shipper at {@code shipperAdmin} (the current primary's), or none when null. */
    @Override
    public void readShipper(URI shipperAdmin) {
        postmasterReport.target(shipperAdmin);
    }

    /** The verdict on {@code primary} now, given what the standbys report. */
    @Override
    public Verdict judge(String primary, Collection<StandbyView> standbys) {
        String postmasterExit = postmasterReport.exit();
        return detection.judge(primary, probe.view(), standbys, postmasterExit);
    }

    /** What the primary's shipper said, recently, of its postmaster's exit; null when it saw none. */
    @Override
    public String postmasterExit() {
        return postmasterReport.exit();
    }

    @Override
    public boolean shipperFenced() {
        return postmasterReport.shipperFenced();
    }

    @Override
    public void shipperFenceLifted() {
        postmasterReport.fenceLifted();
    }

    /** {@link #postmasterExit()}, waiting briefly for a report still on its way ({@link PostmasterReport#awaitExit}). */
    @Override
    public String awaitPostmasterExit() {
        return postmasterReport.awaitExit();
    }

    /** What the probe knows now: its failures, and the primary's WAL position when it last answered. */
    @Override
    public ProbeView probeView() {
        return probe.view();
    }

    @Override
    public void hold() {
        probe.hold();
        postmasterReport.hold();
    }

    @Override
    public void resume() {
        probe.resume();
        postmasterReport.resume();
    }

    @Override
    public void close() {
        probe.close();
        postmasterReport.close();
    }
}
