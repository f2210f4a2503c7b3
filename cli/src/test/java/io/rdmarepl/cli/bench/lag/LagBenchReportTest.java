package io.rdmarepl.cli.bench.lag;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report, its ratios and the chart, from made-up rounds (the systems are not started). */
class LagBenchReportTest {
    private static final long T0 = 1_764_000_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void shouldDivideRdmareplsPercentilesByPostgresqls() {
        List<SystemResult> results = results();

        Map<String, Object> report = LagBenchReport.build(results, Map.of("rounds", 1), Map.of("cores", 2), leftovers(0), null);

        assertThat(report.get("pass")).isEqualTo(true);
        List<?> systems = (List<?>) report.get("systems");
        assertThat(systems).hasSize(2);
        Map<?, ?> rdmarepl = (Map<?, ?>) systems.get(0);
        assertThat(rdmarepl.get("name")).isEqualTo("rdmarepl");
        assertThat(rdmarepl.get("transport")).isEqualTo("shm");
        assertThat(rdmarepl.get("samples")).isEqualTo(1000L);
        assertThat(List.copyOf(((Map<?, ?>) rdmarepl.get("lag_us")).keySet())).asList().containsExactly("p50", "p90", "p99", "p999", "max");
        assertThat(List.copyOf(((Map<?, ?>) rdmarepl.get("stages")).keySet())).asList().contains("commit_to_ring_ms", "group_apply_ms");
        Map<?, ?> ratio = (Map<?, ?>) ((List<?>) report.get("ratios")).get(0);
        assertThat(ratio.get("system")).isEqualTo("rdmarepl over shm");
        assertThat((Double) ((Map<?, ?>) ratio.get("lag")).get("p50")).isBetween(3.95, 4.05);
    }

    @Test
    void shouldFailWhenSomethingIsLeftOnTheServers() {
        assertThat(LagBenchReport.build(results(), Map.of(), Map.of(), leftovers(1), null).get("pass")).isEqualTo(false);
    }

    @Test
    void shouldPrintATableWithRatiosPerPercentile() {
        List<SystemResult> results = results();
        Map<String, Object> settings = new LinkedHashMap<>(Map.of("rounds", 1, "seconds", 10, "warmup_seconds", 5, "probe_rate", 100,
                "load", "none", "servers", "embedded", "native_sync", "off"));
        Map<String, Object> report = LagBenchReport.build(results, settings, Map.of("postgresql", "17.6", "fsync", "on"),
                leftovers(0), null);

        String table = LagBenchReport.table(results, report);

        assertThat(table).contains("rdmarepl over shm").contains("postgresql logical (sync off)")
                .contains("ratio shm / postgresql").contains("4.0").contains("bounded")
                .contains("left on the servers: 0 subscription(s), 0 replication slot(s), 0 publication(s)");
    }

    @Test
    void shouldDrawBothChartsAsPngAndSvg() throws Exception {
        Path png = dir.resolve("lag.png");
        Path svg = dir.resolve("lag.svg");

        LagChart.write(png, results(), "test");
        LagChart.write(svg, results(), "test");

        byte[] header = Files.readAllBytes(png);
        assertThat(new String(header, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
        assertThat(Files.size(png)).isBetween(5_000L, 400_000L);
        assertThat(Files.readString(svg)).contains("<svg");
    }

    private static List<SystemResult> results() {
        SystemResult rdmarepl = new SystemResult(new RdmareplSystem("shm", null, "rdmarepl_lag", null, null));
        SystemResult postgresql = new SystemResult(new NativeLogicalSystem(null, "rdmarepl_lag", null, "off"));
        rdmarepl.add(round(8_000));
        postgresql.add(round(2_000));
        return List.of(rdmarepl, postgresql);
    }

    /** 1000 probes over 10 s, lag between {@code baseUs} and twice that. */
    private static RoundResult round(long baseUs) {
        List<ProbeSample> samples = new ArrayList<>();
        Histogram commit = Figures.histogram();
        for (int i = 0; i < 1000; i++) {
            samples.add(new ProbeSample(i + 1, T0 + i * 10_000L, baseUs + baseUs * i / 1000));
            Figures.record(commit, 1_500);
        }
        LagWorkload.Window window = new LagWorkload.Window(1, 1000, 10.0, 1000, 1000, commit, 0);
        return new RoundResult(1, 1, samples, 0, window, baseUs);
    }

    private static Map<String, Object> leftovers(long subscriptions) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("subscriptions", subscriptions);
        m.put("replication_slots", 0L);
        m.put("publications", 0L);
        return m;
    }
}
