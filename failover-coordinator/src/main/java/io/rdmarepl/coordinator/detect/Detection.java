package io.rdmarepl.coordinator.detect;

import java.time.Duration;
import java.util.Collection;

/**
 * The failure rule: the primary has failed only when BOTH its JDBC probe failed {@code probeFailures} times in a
 * row (or did not answer within the timeout) AND no standby received a heartbeat frame for {@code heartbeat}.
 * Either signal alone is a stall, a network blip or a busy primary, and never fails over. The silence only tells a
 * dead primary from a stalled one; when the primary's shipper saw its postmaster exit ({@link PostmasterReport}),
 * that is known already, and one failed probe suffices: it only confirms that no restarted server answers. Waiting
 * for {@code probeFailures} would mostly wait out the postmaster's teardown, during which a new connection is
 * accepted but never answered, so the second probe cannot even start until the first gives up.
 *
 * <p>The silence must also cover the failures: a dead primary sent its last heartbeat before its probe first failed,
 * so the standbys' silence is at least as old as the failures ({@code heartbeatAge + heartbeat >= failingFor}). A
 * primary cut off from the coordinator alone keeps the standbys' heartbeats fresh while its probe fails for good;
 * without this, the first heartbeat gap over {@code heartbeat} on a busy host (a scheduling hiccup) would complete
 * the rule and fail a healthy primary over (found by the partition tests' scenario 2).
 *
 * <p>Unless the silence has lasted {@code longSilence} (the lease, {@code fence.lease.ms}): no hiccup lasts that long,
 * and a primary that stopped reaching the coordinator first and its standbys later (a partition that grows, or a
 * primary that dies while cut off from the coordinator) would otherwise never be failed over, the probe's failures
 * always older than the silence (found by the partition tests' scenario 3: a primary cut off from the coordinator 1 s
 * before its standby was never failed over, "b received a heartbeat 58847 ms ago, long after the probe began
 * failing"; once also with both cuts 60 ms apart). Its shipper, hearing no standby all that while, keeps the primary writable only on the
 * coordinator's renewals, which the failover stops before it waits out the lease.
 *
 * <p>The converse: standbys that fell silent while the primary still answered its probe (its last answer came more
 * than {@link #HICCUP_MS} after their last heartbeat) heard nothing because of a cut between them, not a death; their
 * silence then says nothing of what the probe finds later. A dead primary's last answer and last heartbeat are no
 * further apart than a hiccup. So after such a cut the probe alone must show the death, by failing for a whole lease:
 * a busy primary whose probe misses its timeout twice is not failed over to a standby it could not reach (found by
 * the partition tests' scenario 4 on a loaded host: "primary b failed 2 probe(s) in 176 ms (no answer within 25 ms)
 * and no standby received a heartbeat for 5623 ms", the standby cut off 5.4 s before). Without a lease, never.
 */
public final class Detection {
    /**
     * The longest a live primary's heartbeats may lag its probe's answers on a busy host (a scheduling hiccup); a
     * silence that began longer before the last answer is a cut between the primary and its standbys.
     */
    static final long HICCUP_MS = 250;
    private final Duration heartbeat;
    private final int probeFailures;
    private final Duration longSilence;

    /** @param longSilence a silence this long fails the primary whenever its probe began failing (0: never) */
    public Detection(Duration heartbeat, int probeFailures, Duration longSilence) {
        this.heartbeat = heartbeat;
        this.probeFailures = probeFailures;
        this.longSilence = longSilence;
    }

    /**
     * @param postmasterExit what the primary's shipper said of its postmaster's exit, or null when it saw none
     */
    public Verdict judge(String primary, ProbeView probe, Collection<StandbyView> standbys, String postmasterExit) {
        StandbyView freshestView = freshest(standbys);
        long heartbeatAge = freshestView == null ? Long.MAX_VALUE : freshestView.heartbeatAgeMs();
        String freshest = freshestView == null ? null : freshestView.name();
        boolean silent = heartbeatAge > heartbeat.toMillis();
        boolean silentSinceFailing = heartbeatAge == Long.MAX_VALUE
                || heartbeatAge + heartbeat.toMillis() >= probe.failingForMs()
                || (!longSilence.isZero() && heartbeatAge >= longSilence.toMillis());
        boolean probeFailed = probe.failures() >= probeFailures;
        boolean exitConfirmed = postmasterExit != null && probe.failures() >= 1;
        String heard = heartbeatAge == Long.MAX_VALUE ? "no standby reports heartbeats"
                : "no standby received a heartbeat for " + heartbeatAge + " ms";
        long answeredIntoSilenceMs = heartbeatAge == Long.MAX_VALUE ? 0 : heartbeatAge - probe.sinceSuccessMs();
        boolean cutFromStandbys = answeredIntoSilenceMs > HICCUP_MS;
        boolean failedForALease = !longSilence.isZero() && probe.failingForMs() >= longSilence.toMillis();
        if (probeFailed && silent && silentSinceFailing && cutFromStandbys && !failedForALease) {
            return new Verdict(false, "primary " + primary + " failed " + probe.failures() + " probe(s) in " + probe.failingForMs()
                    + " ms (" + probe.error() + ") but answered one " + answeredIntoSilenceMs + " ms after the standbys last"
                    + " received a heartbeat: they are cut off from it, and the probe alone fails it only once failing for "
                    + (longSilence.isZero() ? "ever (no lease)" : "the lease (" + longSilence.toMillis() + " ms)")
                    + ": not failing over", 0);
        }
        if (probeFailed && silent && silentSinceFailing) {
            long failedFor = Math.max(probe.failingForMs(), heartbeatAge == Long.MAX_VALUE ? 0 : heartbeatAge - heartbeat.toMillis());
            return new Verdict(true, "primary " + primary + " failed " + probe.failures() + " probe(s) in " + probe.failingForMs()
                    + " ms (" + probe.error() + ") and " + heard, failedFor);
        }
        if (exitConfirmed) {
            return new Verdict(true, "primary " + primary + " failed " + probe.failures() + " probe(s) in " + probe.failingForMs()
                    + " ms (" + probe.error() + ") and its shipper saw its postmaster exit (" + postmasterExit + ")",
                    probe.failingForMs());
        }
        if (probeFailed && silent) {
            return new Verdict(false, "primary " + primary + " failed " + probe.failures() + " probe(s) in "
                    + probe.failingForMs() + " ms (" + probe.error() + ") but " + freshest + " received a heartbeat "
                    + heartbeatAge + " ms ago, long after the probe began failing: the primary is alive and cut off from"
                    + " the coordinator, not failing over", 0);
        }
        if (probeFailed) {
            return new Verdict(false, "primary " + primary + " failed " + probe.failures() + " probe(s) (" + probe.error()
                    + ") but " + freshest + " received a heartbeat " + heartbeatAge + " ms ago: not failing over", 0);
        }
        if (silent) {
            return new Verdict(false, heard + " but primary " + primary + " answers its probe: not failing over", 0);
        }
        return new Verdict(false, "primary " + primary + " healthy: probe answered " + probe.sinceSuccessMs()
                + " ms ago, heartbeat " + heartbeatAge + " ms ago", 0);
    }

    /** The reachable standby that heard a heartbeat last, or null. */
    private static StandbyView freshest(Collection<StandbyView> standbys) {
        StandbyView freshest = null;
        for (StandbyView standby : standbys) {
            if (standby.reachable() && standby.heartbeatAgeMs() != Long.MAX_VALUE
                    && (freshest == null || standby.heartbeatAgeMs() < freshest.heartbeatAgeMs())) {
                freshest = standby;
            }
        }
        return freshest;
    }
}
