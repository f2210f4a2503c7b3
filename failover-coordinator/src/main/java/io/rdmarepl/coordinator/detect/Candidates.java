package io.rdmarepl.coordinator.detect;

import io.rdmarepl.format.Lsn;
import java.util.Collection;
import java.util.Optional;

/** Which standby to promote: reachable, applying, at most {@code maxLagBytes} behind its ring; the most advanced wins. */
public final class Candidates {
    private final long maxLagBytes;

    public Candidates(long maxLagBytes) {
        this.maxLagBytes = maxLagBytes;
    }

    /** Why {@code standby} cannot be promoted, or empty when it can. */
    public Optional<String> disqualification(StandbyView standby) {
        if (!standby.reachable()) {
            return Optional.of(standby.name() + "'s applier is unreachable (" + standby.error() + ")");
        }
        if (standby.state().equals("promoted") || standby.state().equals("stopped")) {
            return Optional.of(standby.name() + " is " + standby.state());
        }
        if (standby.backlogBytes() > maxLagBytes) {
            return Optional.of(standby.name() + " is " + standby.backlogBytes() + " bytes behind its ring (max.lag.bytes "
                    + maxLagBytes + ")");
        }
        return Optional.empty();
    }

    public Optional<StandbyView> best(Collection<StandbyView> standbys) {
        StandbyView best = null;
        for (StandbyView standby : standbys) {
            if (disqualification(standby).isEmpty()
                    && (best == null || Lsn.compare(lsn(standby), lsn(best)) > 0)) {
                best = standby;
            }
        }
        return Optional.ofNullable(best);
    }

    private static long lsn(StandbyView standby) {
        return standby.appliedLsn() == null ? 0 : Lsn.parse(standby.appliedLsn());
    }
}
