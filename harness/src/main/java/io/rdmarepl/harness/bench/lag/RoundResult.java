package io.rdmarepl.harness.bench.lag;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * One system in one round: the lag of every probe of the measured window, what the primary committed
 * meanwhile, and the catch-up after the load stopped (the lag of a probe sent right after it: the replica
 * applies in commit order, so when that probe is there, everything is).
 *
 * @param order         1 when this system ran first in its round
 * @param missing       probes of the window the replica never got (0 unless something is wrong)
 * @param catchUpUs     lag of the probe sent after the load stopped; -1 when the system stamps no lag (physical)
 * @param returnPath    synchronous systems with stamped probes: per probe, applied on the replica -> its commit returned
 *                      to the client ({@link #returnPath}); null otherwise
 * @param notSynchronous a synchronous system that was not (at the window's start or after the catch-up): what the
 *                      primary or the shipper showed; null when it was, or for an asynchronous system
 * @param cpuMsPer1000Tx the CPU its path took in the window, per 1,000 transactions committed on the primary, by part
 *                      ({@link io.rdmarepl.harness.bench.cpu.CpuAccount}); empty off Linux
 */
record RoundResult(int round, int order, List<ProbeSample> samples, long missing, LagWorkload.Window window, long catchUpUs,
                   ReturnPath returnPath, String notSynchronous, Map<String, Double> cpuMsPer1000Tx) {

    /**
     * @param us     applied -> returned, per probe whose return time is known
     * @param early  probes whose commit returned before the replica applied them: none, when commits wait as they should
     * @param legs   rdmarepl without other load: the whole commit in four legs ({@link CommitEvents#split}); else empty
     */
    record ReturnPath(Histogram us, long early, Map<String, Histogram> legs) {
        ReturnPath withLegs(Map<String, Histogram> legs) {
            return new ReturnPath(us, early, legs);
        }
    }

    RoundResult(int round, int order, List<ProbeSample> samples, long missing, LagWorkload.Window window, long catchUpUs) {
        this(round, order, samples, missing, window, catchUpUs, null, null, Map.of());
    }

    /** The CPU of the path per 1,000 transactions, all parts together; NaN when not measured. */
    double cpuTotalMsPer1000Tx() {
        Double total = cpuMsPer1000Tx.get("total");
        return total == null ? Double.NaN : total;
    }

    /**
     * The second half of a synchronous commit, per probe: from {@code applied_at} (the replica's trigger, inside the
     * apply transaction) to the moment the client had its commit back. The first half is the lag itself ({@code
     * applied_at - sent_at}). One host, one clock; probes whose return time is unknown are left out.
     */
    static ReturnPath returnPath(List<ProbeSample> samples, LagWorkload.Window window) {
        Histogram h = Figures.histogram();
        long early = 0;
        for (ProbeSample s : samples) {
            long returned = window.returnedUs(s.id());
            if (returned > 0) {
                long us = returned - (s.sentAtUs() + s.lagUs());
                early += us < 0 ? 1 : 0;
                Figures.record(h, us);
            }
        }
        return new ReturnPath(h, early, Map.of());
    }

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
        m.put("lag_us", samples.isEmpty() ? null : Figures.percentiles(lag()));
        m.put("samples", (long) samples.size());
        m.put("missing_probes", missing);
        m.put("commit_us", Figures.percentiles(window.commitUs()));
        m.put("throughput_tps", Math.round(window.throughputTps()));
        m.put("probe_rate", Math.round(window.probeRate()));
        m.put("catch_up_ms", catchUpUs < 0 ? null : Math.round(catchUpUs / 100.0) / 10.0);
        double growth = growthMsPerS();
        m.put("lag_growth_ms_per_s", Math.round(growth * 100) / 100.0);
        m.put("lag_bounded", LagTrend.bounded(growth));
        m.put("load_retries", window.loadRetries());
        if (returnPath != null) {
            m.put("applied_to_returned_us", Figures.percentiles(returnPath.us()));
            m.put("returned_before_applied", returnPath.early());
            if (!returnPath.legs().isEmpty()) {
                Map<String, Object> legs = new LinkedHashMap<>();
                returnPath.legs().forEach((leg, h) -> legs.put(leg, Figures.percentiles(h)));
                m.put("legs_us", legs);
            }
        }
        if (notSynchronous != null) {
            m.put("not_synchronous", notSynchronous);
        }
        if (!cpuMsPer1000Tx.isEmpty()) {
            m.put("cpu_ms_per_1000_tx", cpuMsPer1000Tx);
        }
        return m;
    }
}
