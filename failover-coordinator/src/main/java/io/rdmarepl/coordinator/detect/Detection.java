package io.rdmarepl.coordinator.detect;

import java.time.Duration;
import java.util.Collection;

/**
 * The failure rule: the primary has failed only when BOTH its JDBC probe failed {@code probeFailures} times in a
 * row (or did not answer within the timeout) AND no standby received a heartbeat frame for {@code heartbeat}.
 * Either signal alone is a stall, a network blip or a busy primary, and never fails over.
 */
public final class Detection {
    private final Duration heartbeat;
    private final int probeFailures;

    public Detection(Duration heartbeat, int probeFailures) {
        this.heartbeat = heartbeat;
        this.probeFailures = probeFailures;
    }

    /**
     * The standbys that answer have heard no heartbeat for more than half of {@code heartbeat}, and for at most ten
     * times it: time for the probe to use new connections ({@link PrimaryProbe#suspect}), so that its failures are
     * in by the time the silence counts. Not with no standby answering (nothing is known), nor in a long silence
     * (a stopped shipper): a connection every probe is for the first milliseconds of a failure only.
     */
    public boolean heartbeatsFading(Collection<StandbyView> standbys) {
        StandbyView freshest = freshest(standbys);
        if (freshest == null) {
            return false;
        }
        long age = freshest.heartbeatAgeMs();
        return age > heartbeat.toMillis() / 2 && age <= heartbeat.toMillis() * 10;
    }

    public Verdict judge(String primary, ProbeView probe, Collection<StandbyView> standbys) {
        StandbyView freshestView = freshest(standbys);
        long heartbeatAge = freshestView == null ? Long.MAX_VALUE : freshestView.heartbeatAgeMs();
        String freshest = freshestView == null ? null : freshestView.name();
        boolean silent = heartbeatAge > heartbeat.toMillis();
        boolean probeFailed = probe.failures() >= probeFailures;
        String heard = heartbeatAge == Long.MAX_VALUE ? "no standby reports heartbeats"
                : "no standby received a heartbeat for " + heartbeatAge + " ms";
        if (probeFailed && silent) {
            long failedFor = Math.max(probe.failingForMs(), heartbeatAge == Long.MAX_VALUE ? 0 : heartbeatAge - heartbeat.toMillis());
            return new Verdict(true, "primary " + primary + " failed " + probe.failures() + " probe(s) in " + probe.failingForMs()
                    + " ms (" + probe.error() + ") and " + heard, failedFor);
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
