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

    /**
     * The most advanced qualified standby; one whose last status read answered wins over one whose last read failed
     * (kept as reachable for a few reads, see {@link StandbyWatch}), whatever their positions.
     */
    public Optional<StandbyView> best(Collection<StandbyView> standbys) {
        StandbyView best = null;
        for (StandbyView standby : standbys) {
            if (disqualification(standby).isEmpty() && (best == null || better(standby, best))) {
                best = standby;
            }
        }
        return Optional.ofNullable(best);
    }

    private static boolean better(StandbyView standby, StandbyView than) {
        boolean answered = standby.error() == null;
        if (answered != (than.error() == null)) {
            return answered;
        }
        return Lsn.compare(lsn(standby), lsn(than)) > 0;
    }

    private static long lsn(StandbyView standby) {
        return standby.appliedLsn() == null ? 0 : Lsn.parse(standby.appliedLsn());
    }
}
