package io.rdmarepl.cli.bench.lag;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * One system in one round: the lag of every probe of the measured window, what the primary committed
 * meanwhile, and the catch-up after the load stopped (the lag of a probe sent right after it: the replica
 * applies in commit order, so when that probe is there, everything is).
 *
 * @param order     1 when this system ran first in its round
 * @param missing   probes of the window the replica never got (0 unless something is wrong)
 * @param catchUpUs lag of the probe sent after the load stopped
 */
record RoundResult(int round, int order, List<ProbeSample> samples, long missing, LagWorkload.Window window, long catchUpUs) {

    Histogram lag() {
        Histogram h = Figures.histogram();
        for (ProbeSample s : samples) {
            Figures.record(h, s.lagUs());
        }
        return h;
    }

    double growthMsPerS() {
        return LagTrend.slopeMsPerS(samples);
    }

    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("round", round);
        m.put("order", order);
        m.put("lag_us", Figures.percentiles(lag()));
        m.put("samples", (long) samples.size());
        m.put("missing_probes", missing);
        m.put("commit_us", Figures.percentiles(window.commitUs()));
        m.put("throughput_tps", Math.round(window.throughputTps()));
        m.put("probe_rate", Math.round(window.probeRate()));
        m.put("catch_up_ms", Math.round(catchUpUs / 100.0) / 10.0);
        double growth = growthMsPerS();
        m.put("lag_growth_ms_per_s", Math.round(growth * 100) / 100.0);
        m.put("lag_bounded", LagTrend.bounded(growth));
        m.put("load_retries", window.loadRetries());
        return m;
    }
}
