package io.rdmarepl.harness.bench.lag;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Where rdmarepl's lag goes, from the components' own Micrometer timers, over the measured window only:
 * the timers' percentile-histogram buckets (cumulative in a Prometheus registry) are read when the
 * window opens and after the catch-up, and the difference is what the window recorded. A percentile is
 * the upper bound of the bucket it falls in (buckets are 10 - 33% wide).
 * <pre>
 *   primary commit --capture + ship--> in the ring --ring to replica commit--> replica commit
 *   |&lt;-------------- commit_to_ring -------------->|
 *   |&lt;---------------------------- commit_to_replica_commit (applier) ------------------->|
 *                                              one replica group: group_apply
 * </pre>
 * {@code ring_to_replica_commit} is derived (whole path minus capture + ship, percentile by percentile),
 * an approximation: percentiles do not subtract exactly. The timers record when a transaction reaches the
 * ring or the replica, so a backlog left by too short a warm-up lands in the window (the probes, counted by
 * send time, leave it out).
 */
final class StageHistograms {
    /** Stage name in the report to the timer that measures it. */
    static final Map<String, String> TIMERS = Map.of(
            "commit_to_ring", "rdmarepl_shipper_commit_to_ring",
            "commit_to_replica_commit", "rdmarepl.applier.lag",
            "group_apply", "rdmarepl.applier.apply.latency");
    private static final String[] ORDER = {"commit_to_ring", "commit_to_replica_commit", "group_apply"};
    private static final double[] QUANTILES = {0.5, 0.9, 0.99};

    /** Cumulative counts per bucket ({@code le} upper bounds in microseconds) and the total, for one timer. */
    record Buckets(double[] upperUs, double[] cumulative, long count) {
        static final Buckets EMPTY = new Buckets(new double[0], new double[0], 0);

        Buckets combine(Buckets other, int sign) {
            if (upperUs.length == 0) {
                return sign > 0 ? other : new Buckets(other.upperUs, negate(other.cumulative), -other.count);
            }
            if (other.upperUs.length == 0) {
                return this;
            }
            if (!Arrays.equals(upperUs, other.upperUs)) {
                throw new IllegalArgumentException("histograms with different buckets");
            }
            double[] sum = new double[cumulative.length];
            for (int i = 0; i < sum.length; i++) {
                sum[i] = cumulative[i] + sign * other.cumulative[i];
            }
            return new Buckets(upperUs, sum, count + sign * other.count);
        }

        /** Upper bound (us) of the bucket holding quantile {@code q}; the highest bound when it lies above; -1 when empty. */
        double quantileUs(double q) {
            if (count <= 0 || upperUs.length == 0) {
                return -1;
            }
            double rank = q * count;
            for (int i = 0; i < upperUs.length; i++) {
                if (cumulative[i] >= rank) {
                    return upperUs[i];
                }
            }
            return upperUs[upperUs.length - 1];
        }

        private static double[] negate(double[] values) {
            double[] out = new double[values.length];
            for (int i = 0; i < values.length; i++) {
                out[i] = -values[i];
            }
            return out;
        }
    }

    private final Map<String, Buckets> stages;

    private StageHistograms(Map<String, Buckets> stages) {
        this.stages = stages;
    }

    static StageHistograms empty() {
        Map<String, Buckets> m = new LinkedHashMap<>();
        for (String stage : ORDER) {
            m.put(stage, Buckets.EMPTY);
        }
        return new StageHistograms(m);
    }

    /** The buckets the timers hold now (empty for a timer not registered yet). */
    static StageHistograms take(MeterRegistry registry) {
        Map<String, Buckets> m = new LinkedHashMap<>();
        for (String stage : ORDER) {
            Timer timer = registry.find(TIMERS.get(stage)).timer();
            if (timer == null) {
                m.put(stage, Buckets.EMPTY);
                continue;
            }
            HistogramSnapshot snapshot = timer.takeSnapshot();
            CountAtBucket[] counts = snapshot.histogramCounts();
            double[] upper = new double[counts.length];
            double[] cumulative = new double[counts.length];
            for (int i = 0; i < counts.length; i++) {
                upper[i] = counts[i].bucket(TimeUnit.MICROSECONDS);
                cumulative[i] = counts[i].count();
            }
            m.put(stage, new Buckets(upper, cumulative, snapshot.count()));
        }
        return new StageHistograms(m);
    }

    /** What was recorded since {@code earlier}. */
    StageHistograms minus(StageHistograms earlier) {
        return combine(earlier, -1);
    }

    StageHistograms plus(StageHistograms other) {
        return combine(other, 1);
    }

    private StageHistograms combine(StageHistograms other, int sign) {
        Map<String, Buckets> m = new LinkedHashMap<>();
        for (String stage : ORDER) {
            m.put(stage, stages.get(stage).combine(other.stages.get(stage), sign));
        }
        return new StageHistograms(m);
    }

    /** Per stage: {@code count} and {@code p50}, {@code p90}, {@code p99} in milliseconds (bucket upper bounds). */
    Map<String, Object> toMap() {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String stage : ORDER) {
            Buckets b = stages.get(stage);
            Map<String, Object> figures = new LinkedHashMap<>();
            figures.put("count", b.count());
            for (double q : QUANTILES) {
                double us = b.quantileUs(q);
                figures.put(label(q), us < 0 ? null : round3(us / 1000));
            }
            out.put(stage + "_ms", figures);
        }
        Map<String, Object> derived = new LinkedHashMap<>();
        for (double q : QUANTILES) {
            double whole = stages.get("commit_to_replica_commit").quantileUs(q);
            double capture = stages.get("commit_to_ring").quantileUs(q);
            derived.put(label(q), whole < 0 || capture < 0 ? null : round3(Math.max(0, whole - capture) / 1000));
        }
        out.put("ring_to_replica_commit_ms_derived", derived);
        return out;
    }

    private static String label(double q) {
        return "p" + Math.round(q * 100);
    }

    private static double round3(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
