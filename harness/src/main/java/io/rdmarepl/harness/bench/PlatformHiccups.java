package io.rdmarepl.harness.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How often this host takes the CPU away from a thread that never blocks: a spinning thread reads
 * the clock and records every gap. Latency tails below the platform's own hiccups cannot be
 * measured here, so the benchmark reports them next to its figures.
 */
final class PlatformHiccups {
    private static final long GAP_NS = 50_000;

    private PlatformHiccups() {
    }

    static Map<String, Object> measure(long durationNs) {
        long startNs = System.nanoTime();
        long endNs = startNs + durationNs;
        long lastNs = startNs;
        long worstNs = 0;
        long gaps = 0;
        long gapNs = 0;
        long nowNs;
        while ((nowNs = System.nanoTime()) < endNs) {
            long gap = nowNs - lastNs;
            if (gap > GAP_NS) {
                gaps++;
                gapNs += gap;
            }
            worstNs = Math.max(worstNs, gap);
            lastNs = nowNs;
        }
        double seconds = (nowNs - startNs) / 1e9;
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("seconds", Math.round(seconds * 10) / 10.0);
        result.put("gaps_over_50us_per_s", Math.round(gaps / seconds));
        result.put("worst_gap_us", worstNs / 1000);
        result.put("time_lost_percent", Math.round(gapNs / (seconds * 1e9) * 1000) / 10.0);
        return result;
    }
}
