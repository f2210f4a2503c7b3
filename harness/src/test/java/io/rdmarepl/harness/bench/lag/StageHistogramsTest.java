package io.rdmarepl.harness.bench.lag;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Against a real Prometheus registry with timers built as the shipper and the applier build theirs. */
class StageHistogramsTest {

    @Test
    void shouldKeepOnlyWhatTheWindowRecorded() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Timer capture = timer(registry, "rdmarepl_shipper_commit_to_ring", Duration.ofNanos(100_000));
        Timer whole = timer(registry, "rdmarepl.applier.lag", Duration.ofNanos(10_000));
        for (int i = 0; i < 100; i++) {
            capture.record(900, TimeUnit.MILLISECONDS); // a cold warm-up, left out
            whole.record(950, TimeUnit.MILLISECONDS);
        }
        StageHistograms start = StageHistograms.take(registry);
        for (int i = 0; i < 100; i++) {
            capture.record(5, TimeUnit.MILLISECONDS);
            whole.record(i < 95 ? 7 : 60, TimeUnit.MILLISECONDS);
        }

        Map<String, Object> stages = StageHistograms.take(registry).minus(start).toMap();

        assertThat(figures(stages, "commit_to_ring_ms")).containsEntry("count", 100L);
        assertThat((Double) figures(stages, "commit_to_ring_ms").get("p99")).isBetween(5.0, 6.7);
        assertThat((Double) figures(stages, "commit_to_replica_commit_ms").get("p50")).isBetween(7.0, 9.4);
        assertThat((Double) figures(stages, "commit_to_replica_commit_ms").get("p99")).isBetween(60.0, 80.0);
        assertThat((Double) figures(stages, "ring_to_replica_commit_ms_derived").get("p50")).isBetween(0.0, 4.0);
        assertThat(figures(stages, "group_apply_ms")).containsEntry("count", 0L).containsEntry("p50", null);
    }

    @Test
    void shouldAddRoundsUp() {
        PrometheusMeterRegistry first = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        PrometheusMeterRegistry second = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Timer a = timer(first, "rdmarepl.applier.apply.latency", Duration.ofNanos(10_000));
        Timer b = timer(second, "rdmarepl.applier.apply.latency", Duration.ofNanos(10_000));
        a.record(2, TimeUnit.MILLISECONDS);
        b.record(3, TimeUnit.MILLISECONDS);
        b.record(3, TimeUnit.MILLISECONDS);

        Map<String, Object> stages = StageHistograms.empty().plus(StageHistograms.take(first)).plus(StageHistograms.take(second)).toMap();

        assertThat(figures(stages, "group_apply_ms")).containsEntry("count", 3L);
        assertThat((Double) figures(stages, "group_apply_ms").get("p50")).isBetween(3.0, 4.0);
    }

    private static Timer timer(PrometheusMeterRegistry registry, String name, Duration min) {
        return Timer.builder(name).publishPercentileHistogram().publishPercentiles(0.5, 0.9, 0.99)
                .minimumExpectedValue(min).maximumExpectedValue(Duration.ofSeconds(30)).register(registry);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> figures(Map<String, Object> stages, String stage) {
        return (Map<String, Object>) stages.get(stage);
    }
}
