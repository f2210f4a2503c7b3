package io.rdmarepl.cli.bench.lag;

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

    SystemResult(ReplicationSystem system) {
        this.system = system;
    }

    void add(RoundResult round) {
        rounds.add(round);
        lag.add(round.lag());
        commit.add(round.window().commitUs());
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

    /** The longest catch-up of any round, in microseconds. */
    long catchUpUs() {
        return rounds.stream().mapToLong(RoundResult::catchUpUs).max().orElse(0);
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
        if (system instanceof NativeLogicalSystem n) {
            m.put("synchronous_commit", n.synchronousCommit());
        }
        m.put("rounds", rounds.size());
        m.put("lag_us", Figures.percentiles(lag));
        m.put("samples", samples());
        m.put("commit_us", Figures.percentiles(commit));
        m.put("commit_samples", commit.getTotalCount());
        m.put("throughput_tps", Math.round(throughputTps()));
        m.put("catch_up_ms", Math.round(catchUpUs() / 100.0) / 10.0);
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
