package io.rdmarepl.harness.bench.lag;

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
        assertThat((List<?>) report.get("problems")).isEmpty();
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
        Map<String, Object> report = LagBenchReport.build(results(), Map.of(), Map.of(), leftovers(1), null);

        assertThat(report.get("pass")).isEqualTo(false);
        assertThat((List<?>) report.get("problems")).singleElement().asString().startsWith("left behind on the servers: ");
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
    void shouldPrintAndWriteEachRoundsCpuPerThousandTransactions() {
        SystemResult rdmarepl = new SystemResult(new RdmareplSystem("shm", null, "rdmarepl_lag", null, null));
        RoundResult measured = round(8_000);
        rdmarepl.add(new RoundResult(1, 1, measured.samples(), 0, measured.window(), 8_000, null, null,
                Map.of("walsender", 61.4, "replica backends", 78.0, "total", 229.2)));
        SystemResult postgresql = new SystemResult(new NativeLogicalSystem(null, "rdmarepl_lag", null, "off"));
        postgresql.add(round(2_000)); // not measured (off Linux): no figure, no line
        List<SystemResult> results = List.of(rdmarepl, postgresql);
        Map<String, Object> report = LagBenchReport.build(results, new LinkedHashMap<>(Map.of("rounds", 1, "load", "max")),
                Map.of(), leftovers(0), null);

        String table = LagBenchReport.table(results, report);

        assertThat(table).contains("(#1)  cpu ms/1000 tx r1 229.2").containsOnlyOnce("cpu ms/1000 tx");
        assertThat(rdmarepl.toMap().get("per_round").toString()).contains("cpu_ms_per_1000_tx={").contains("walsender=61.4")
                .contains("total=229.2");
        assertThat(postgresql.toMap().get("per_round").toString()).doesNotContain("cpu_ms_per_1000_tx");
    }

    @Test
    void shouldCompareSyncCommitLatencyAndSayWhetherTheTargetIsMet() {
        List<SystemResult> results = syncResults(6_000);
        Map<String, Object> settings = new LinkedHashMap<>(syncSettings().toMap());

        Map<String, Object> report = LagBenchReport.build(results, settings, Map.of("postgresql", "17.6", "fsync", "on"), leftovers(0),
                null, List.of());

        assertThat(report.get("pass")).isEqualTo(true);
        List<?> systems = (List<?>) report.get("systems");
        assertThat(systems.stream().map(m -> (Object) ((Map<?, ?>) m).get("label")).toList()).containsExactly("rdmarepl async over shm",
                "rdmarepl sync over shm", "postgresql logical sync", "postgresql physical sync");
        assertThat(systems.stream().map(m -> (Object) ((Map<?, ?>) m).get("synchronous")).toList()).containsExactly(false, true, true, true);
        Map<?, ?> sync = (Map<?, ?>) systems.get(1);
        Map<?, ?> path = (Map<?, ?>) sync.get("commit_path");
        assertThat(((Map<?, ?>) path.get("sent_to_applied_us")).get("p50")).isEqualTo(sync.get("lag_us") instanceof Map<?, ?> l ? l.get("p50") : null);
        assertThat((Long) ((Map<?, ?>) path.get("applied_to_returned_us")).get("p50")).isBetween(990L, 1010L);
        assertThat(path.get("returned_before_applied")).isEqualTo(0L);
        Map<?, ?> physical = (Map<?, ?>) systems.get(3);
        assertThat(physical.get("lag_us")).as("a physical standby stamps no lag").isNull();
        assertThat(physical.get("catch_up_ms")).isNull();
        assertThat(physical.get("commit_path")).isNull();
        assertThat((Long) ((Map<?, ?>) physical.get("commit_us")).get("p50")).isBetween(2990L, 3010L);
        Map<?, ?> target = (Map<?, ?>) ((List<?>) report.get("target")).get(0);
        assertThat(target.get("system")).isEqualTo("rdmarepl sync over shm");
        assertThat(target.get("versus")).isEqualTo("postgresql logical sync");
        assertThat(target.get("met")).isEqualTo(false);
        assertThat((Double) target.get("p50_ratio")).isBetween(1.95, 2.05);
        Map<?, ?> physicalRatio = (Map<?, ?>) ((List<?>) report.get("ratios")).get(2);
        assertThat(((Map<?, ?>) physicalRatio.get("lag")).get("p50")).isNull();
        assertThat((Double) ((Map<?, ?>) physicalRatio.get("commit")).get("p50")).isBetween(0.95, 1.05);

        String table = LagBenchReport.table(results, report);

        assertThat(table).contains("rdmarepl bench lag --mode sync")
                .contains("sessions run synchronous_commit = remote_apply; rdmarepl sync.level remote_apply, strict")
                .contains("commit latency on the primary, ms")
                .contains("target (issue #8: rdmarepl's sync commit latency no higher than postgresql logical sync's): rdmarepl sync over shm"
                        + " p50 / p99 6.00 / 6.00 ms against 3.00 / 3.00 ms: NOT MET (2.00x / 2.00x)")
                .contains("where a synchronous commit's time goes")
                .contains("- (replays WAL, no stamp)")
                .contains("per round (commit p50 / p99 ms")
                .doesNotContain("NOT SYNCHRONOUS");
        assertThat(table.lines().filter(l -> l.startsWith("postgresql physical sync")).toList())
                .anySatisfy(l -> assertThat(l).contains("       -        -"));
    }

    @Test
    void shouldMeetTheTargetWhenRdmareplsSyncCommitsAreNoSlower() {
        Map<String, Object> report = LagBenchReport.build(syncResults(3_000), new LinkedHashMap<>(syncSettings().toMap()), Map.of(),
                leftovers(0), null, List.of());

        Map<?, ?> target = (Map<?, ?>) ((List<?>) report.get("target")).get(0);
        assertThat(target.get("met")).isEqualTo(true);
        assertThat(LagBenchReport.table(syncResults(3_000), report)).contains(": MET");
    }

    @Test
    void shouldFailASyncRunThatWasNotSynchronousOrReturnedEarly() {
        LagBenchSettings settings = syncSettings();
        SystemResult notSync = new SystemResult(new RdmareplSystem("shm", null, "rdmarepl_lag", null, settings, true));
        RoundResult round = round(4_000);
        notSync.add(new RoundResult(1, 1, round.samples(), 0, round.window(), 4_000,
                RoundResult.returnPath(round.samples(), round.window()), "shipper sync status {state=degraded}", Map.of()));
        SystemResult early = new SystemResult(new NativeLogicalSystem(null, "rdmarepl_lag", null, "on", true));
        RoundResult late = round(4_000);
        // every commit returned 1 ms after sending, before the replica applied it (4 ms or later)
        LagWorkload.Window window = withReturns(late.window(), late.samples(), 1_000 - 4_000);
        early.add(new RoundResult(1, 2, late.samples(), 0, window, 4_000, RoundResult.returnPath(late.samples(), window), null, Map.of()));

        Map<String, Object> report = LagBenchReport.build(List.of(notSync, early), new LinkedHashMap<>(settings.toMap()), Map.of(),
                leftovers(0), null, List.of());

        assertThat(report.get("pass")).isEqualTo(false);
        assertThat((List<?>) report.get("problems")).hasSize(2);
        assertThat(early.problems()).singleElement().asString().endsWith(": 1000 commit(s) returned before the replica applied them");
        assertThat(early.returnedBeforeApplied()).isEqualTo(1000);
        assertThat(notSync.notSynchronous()).containsExactly("round 1: shipper sync status {state=degraded}");
        assertThat(LagBenchReport.table(List.of(notSync, early), report)).contains("NOT SYNCHRONOUS round 1: shipper sync status")
                .contains("1000 commit(s) RETURNED BEFORE THE REPLICA APPLIED THEM");
    }

    @Test
    void shouldSplitASynchronousCommitAtTheReplicasAppliedAt() {
        RoundResult round = round(2_000);
        LagWorkload.Window window = withReturns(round.window(), round.samples(), 500);

        RoundResult.ReturnPath path = RoundResult.returnPath(round.samples(), window);

        assertThat(path.us().getTotalCount()).isEqualTo(1000);
        assertThat(path.us().getValueAtPercentile(50)).isBetween(499L, 501L);
        assertThat(path.early()).isZero();
        assertThat(window.returnedUs(0)).as("before the window").isZero();
        assertThat(window.returnedUs(1001)).as("after it").isZero();
    }

    @Test
    void shouldCountTheBenchsLeftoverSynchronousStandbyNamesButNotAnOperatorsOwn() {
        Map<String, Object> left = leftovers(0);
        left.put("synchronous_standby_names", Leftovers.ours("\"rdmarepl_lag\""));
        assertThat(Leftovers.none(left)).isFalse();
        left.put("synchronous_standby_names", Leftovers.ours("FIRST 1 (node_b)"));
        assertThat(Leftovers.none(left)).isTrue();
        left.put("synchronous_standby_names", Leftovers.ours(""));
        assertThat(Leftovers.none(left)).isTrue();

        assertThat(SynchronousStandbys.oursOrEmpty("")).isTrue();
        assertThat(SynchronousStandbys.oursOrEmpty("\"rdmarepl_lag_native\"")).isTrue();
        assertThat(SynchronousStandbys.oursOrEmpty("FIRST 1 (rdmarepl_reference, \"rdmarepl_lag\")")).isTrue();
        assertThat(SynchronousStandbys.oursOrEmpty("ANY 1 (\"rdmarepl_lag\", standby2)")).isFalse();
        assertThat(SynchronousStandbys.oursOrEmpty("*")).isFalse();
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

    @Test
    void shouldDrawTheCommitLatencyToInSyncMode() throws Exception {
        Path png = dir.resolve("sync.png");

        LagChart.write(png, syncResults(6_000), "test");

        javax.imageio.ImageReader reader = javax.imageio.ImageIO.getImageReadersByFormatName("png").next();
        try (javax.imageio.stream.ImageInputStream in = javax.imageio.ImageIO.createImageInputStream(png.toFile())) {
            reader.setInput(in);
            assertThat(reader.getHeight(0)).as("three plots").isEqualTo(3 * 520);
        }
    }

    private static LagBenchSettings syncSettings() {
        LagBenchCommand command = new LagBenchCommand();
        new picocli.CommandLine(command).parseArgs("--mode", "sync");
        return LagBenchSettings.of(command, Map.of());
    }

    /**
     * rdmarepl async (commits 1.5 ms), rdmarepl sync ({@code rdmareplSyncUs} commits: lag 4 to 8 ms... and each returned 1 ms
     * after its apply), PostgreSQL's logical sync (3 ms commits) and physical sync (3 ms commits, no lag).
     */
    private static List<SystemResult> syncResults(long rdmareplSyncUs) {
        LagBenchSettings settings = syncSettings();
        SystemResult async = new SystemResult(new RdmareplSystem("shm", null, "rdmarepl_lag", null, settings, false));
        SystemResult sync = new SystemResult(new RdmareplSystem("shm", null, "rdmarepl_lag", null, settings, true));
        SystemResult logical = new SystemResult(new NativeLogicalSystem(null, "rdmarepl_lag", null, "on", true));
        SystemResult physical = new SystemResult(new NativePhysicalSystem(null, null, "rdmarepl_lag"));
        async.add(round(8_000));
        sync.add(syncRound(4_000, rdmareplSyncUs, 1_000));
        logical.add(syncRound(1_000, 3_000, 1_000));
        RoundResult commits = syncRound(1_000, 3_000, 1_000);
        physical.add(new RoundResult(1, 4, List.of(), 0, commits.window(), -1, null, null, Map.of()));
        return List.of(async, sync, logical, physical);
    }

    /** 1000 probes, lag from {@code baseUs} up, commits of {@code commitUs}, each returned {@code returnUs} after its apply. */
    private static RoundResult syncRound(long baseUs, long commitUs, long returnUs) {
        RoundResult lag = round(baseUs);
        Histogram commit = Figures.histogram();
        for (int i = 0; i < 1000; i++) {
            Figures.record(commit, commitUs);
        }
        LagWorkload.Window window = withReturns(new LagWorkload.Window(1, 1000, 10.0, 1000, 1000, commit, 0), lag.samples(), returnUs);
        return new RoundResult(1, 1, lag.samples(), 0, window, baseUs, RoundResult.returnPath(lag.samples(), window), null, Map.of());
    }

    /** {@code window} with every probe's commit returned {@code afterAppliedUs} after the replica applied it. */
    private static LagWorkload.Window withReturns(LagWorkload.Window window, List<ProbeSample> samples, long afterAppliedUs) {
        long[] returned = new long[(int) (window.lastProbe() - window.firstProbe() + 1)];
        for (ProbeSample s : samples) {
            returned[(int) (s.id() - window.firstProbe())] = s.sentAtUs() + s.lagUs() + afterAppliedUs;
        }
        return new LagWorkload.Window(window.firstProbe(), window.lastProbe(), window.seconds(), window.transactions(), window.probes(),
                window.commitUs(), window.loadRetries(), returned);
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
