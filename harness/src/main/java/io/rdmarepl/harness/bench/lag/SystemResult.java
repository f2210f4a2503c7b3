package io.rdmarepl.harness.bench.lag;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** One system over every round: the rounds' samples merged into one histogram, and each round kept for the spread. */
final class SystemResult {
    private final ReplicationSystem system;
    private final List<RoundResult> rounds = new ArrayList<>();
    private final Histogram lag = Figures.histogram();
    private final Histogram commit = Figures.histogram();
    private final Histogram returnPath = Figures.histogram();
    private long returnedBeforeApplied;
    private final Map<String, Histogram> legs = new LinkedHashMap<>();

    SystemResult(ReplicationSystem system) {
        this.system = system;
    }

    void add(RoundResult round) {
        rounds.add(round);
        lag.add(round.lag());
        commit.add(round.window().commitUs());
        if (round.returnPath() != null) {
            returnPath.add(round.returnPath().us());
            returnedBeforeApplied += round.returnPath().early();
            round.returnPath().legs().forEach((leg, h) -> legs.computeIfAbsent(leg, k -> Figures.histogram()).add(h));
        }
    }

    /** Synchronous systems with stamped probes: applied on the replica -> commit returned, every probe of every round. */
    Histogram returnPath() {
        return returnPath;
    }

    /** rdmarepl sync without other load: each commit in four legs ({@link CommitEvents#LEGS}), every round; else empty. */
    Map<String, Histogram> legs() {
        return legs;
    }

    /** Whether this system yields a lag (probes stamped on the replica). */
    boolean lagMeasured() {
        return system.stampsApplied();
    }

    /** Probes whose commit returned before the replica applied them (a synchronous system: none, or it did not wait). */
    long returnedBeforeApplied() {
        return returnedBeforeApplied;
    }

    /**
     * Why this system's figures do not hold, each a sentence naming it; empty when it produced what it measures (lag
     * samples, or for a physical standby commits), lost no probe and, synchronous, stayed so with no commit returned
     * before the replica applied it.
     */
    List<String> problems() {
        List<String> problems = new ArrayList<>();
        String label = system.label();
        if (lagMeasured() ? samples() == 0 : commit.getTotalCount() == 0) {
            problems.add(label + ": measured nothing (" + (lagMeasured() ? "no probe reached the replica" : "no commit") + ")");
        }
        if (missing() != 0) {
            problems.add(label + ": " + missing() + " probe(s) committed on the primary are missing on the replica");
        }
        notSynchronous().forEach(s -> problems.add(label + ": not synchronous, " + s));
        if (returnedBeforeApplied != 0) {
            problems.add(label + ": " + returnedBeforeApplied + " commit(s) returned before the replica applied them");
        }
        return problems;
    }

    /** What a synchronous system showed in the rounds it was not synchronous in (empty when it always was). */
    List<String> notSynchronous() {
        return rounds.stream().filter(r -> r.notSynchronous() != null).map(r -> "round " + r.round() + ": " + r.notSynchronous()).toList();
    }

    ReplicationSystem system() {
        return system;
    }

    List<RoundResult> rounds() {
        return rounds;
    }

    Histogram lag() {
        return lag;
    }

    Histogram commit() {
        return commit;
    }

    long samples() {
        return lag.getTotalCount();
    }

    double throughputTps() {
        return rounds.stream().mapToDouble(r -> r.window().throughputTps()).average().orElse(0);
    }

    /** The longest catch-up of any round, in microseconds; -1 when the system stamps no lag. */
    long catchUpUs() {
        return rounds.stream().mapToLong(RoundResult::catchUpUs).max().orElse(-1);
    }

    /** The steepest lag growth of any round, ms per second. */
    double growthMsPerS() {
        return rounds.stream().mapToDouble(RoundResult::growthMsPerS).max().orElse(0);
    }

    boolean bounded() {
        return rounds.stream().allMatch(r -> LagTrend.bounded(r.growthMsPerS()));
    }

    long missing() {
        return rounds.stream().mapToLong(RoundResult::missing).sum();
    }

    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", system.name());
        m.put("transport", system.transport());
        m.put("label", system.label());
        m.put("synchronous", system.synchronous());
        if (system instanceof NativeLogicalSystem n) {
            m.put("synchronous_commit", n.synchronousCommit());
        }
        m.put("rounds", rounds.size());
        m.put("lag_us", lagMeasured() ? Figures.percentiles(lag) : null);
        m.put("samples", samples());
        m.put("commit_us", Figures.percentiles(commit));
        m.put("commit_samples", commit.getTotalCount());
        m.put("throughput_tps", Math.round(throughputTps()));
        if (system.synchronous() && lagMeasured()) {
            Map<String, Object> path = new LinkedHashMap<>();
            path.put("sent_to_applied_us", Figures.percentiles(lag));
            path.put("applied_to_returned_us", Figures.percentiles(returnPath));
            path.put("samples", returnPath.getTotalCount());
            path.put("returned_before_applied", returnedBeforeApplied);
            if (!legs.isEmpty()) {
                Map<String, Object> legFigures = new LinkedHashMap<>();
                legs.forEach((leg, h) -> legFigures.put(leg, Figures.percentiles(h)));
                path.put("legs_us", legFigures);
                path.put("legs_samples", legs.values().iterator().next().getTotalCount());
            }
            m.put("commit_path", path);
        }
        m.put("not_synchronous", system.synchronous() ? notSynchronous() : null);
        long catchUp = catchUpUs();
        m.put("catch_up_ms", catchUp < 0 ? null : Math.round(catchUp / 100.0) / 10.0);
        m.put("lag_growth_ms_per_s", Math.round(growthMsPerS() * 100) / 100.0);
        m.put("lag_bounded", bounded());
        m.put("missing_probes", missing());
        if (system instanceof RdmareplSystem r) {
            m.put("stages", r.stages().toMap());
            m.put("back_pressure_seconds", Math.round(r.backPressureSeconds() * 1000) / 1000.0);
        }
        m.put("per_round", rounds.stream().map(RoundResult::toMap).toList());
        return m;
    }
}
