package io.rdmarepl.harness.demo;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Where the lag goes, from the components' own histograms: commit on the primary to the
 * transaction in the ring (capture and ship), commit on the primary to commit on the replica (the
 * whole path), and the time one replica transaction takes to apply (Micrometer's percentiles, over
 * the last couple of minutes).
 */
final class StageBreakdown {
    private StageBreakdown() {
    }

    static Map<String, Object> of(MeterRegistry registry) {
        Map<String, Object> stages = new LinkedHashMap<>();
        stages.put("commit_to_ring_ms", percentiles(registry.find("rdmarepl_shipper_commit_to_ring").timer()));
        stages.put("commit_to_replica_commit_ms", percentiles(registry.find("rdmarepl.applier.lag").timer()));
        stages.put("replica_group_apply_ms", percentiles(registry.find("rdmarepl.applier.apply.latency").timer()));
        return stages;
    }

    private static Map<String, Object> percentiles(Timer timer) {
        Map<String, Object> result = new LinkedHashMap<>();
        if (timer == null) {
            return result;
        }
        HistogramSnapshot snapshot = timer.takeSnapshot();
        result.put("count", snapshot.count());
        for (ValueAtPercentile p : snapshot.percentileValues()) {
            result.put("p" + Math.round(p.percentile() * 100), Math.round(p.value(TimeUnit.MICROSECONDS)) / 1000.0);
        }
        result.put("max", Math.round(snapshot.max(TimeUnit.MICROSECONDS)) / 1000.0);
        return result;
    }
}
