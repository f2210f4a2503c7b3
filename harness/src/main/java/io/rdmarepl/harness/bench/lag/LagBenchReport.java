package io.rdmarepl.harness.bench.lag;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The results as one JSON object, and as a table for people with rdmarepl / PostgreSQL ratios per percentile. In
 * {@code --mode sync} the table leads with the commit latency on the primary, says whether rdmarepl's synchronous
 * commits are as fast as PostgreSQL's synchronous logical replication (issue #8's target), and splits each
 * synchronous commit in two: to the replica's apply, and back to the client.
 */
final class LagBenchReport {
    private LagBenchReport() {
    }

    static Map<String, Object> build(List<SystemResult> results, Map<String, Object> settings, Map<String, Object> machine,
                                     Map<String, Object> leftovers, String chart) {
        return build(results, settings, machine, leftovers, chart, List.of());
    }

    /** @param notRun systems the mode asks for that could not run here ({@code system}, {@code reason}) */
    static Map<String, Object> build(List<SystemResult> results, Map<String, Object> settings, Map<String, Object> machine,
                                     Map<String, Object> leftovers, String chart, List<Map<String, Object>> notRun) {
        Map<String, Object> report = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        results.forEach(r -> problems.addAll(r.problems()));
        if (!Leftovers.none(leftovers)) {
            problems.add("left behind on the servers: " + leftovers);
        }
        report.put("pass", problems.isEmpty());
        report.put("problems", problems);
        report.put("systems", results.stream().map(SystemResult::toMap).toList());
        report.put("ratios", ratios(results));
        if (results.stream().anyMatch(r -> r.system().synchronous())) {
            report.put("target", target(results));
        }
        report.put("not_run", notRun);
        report.put("settings", settings);
        report.put("machine", machine);
        report.put("cleanup", leftovers);
        report.put("chart", chart);
        return report;
    }

    /** Per system: its lag and commit percentiles divided by PostgreSQL's logical replication's (lag only where both have one). */
    private static List<Map<String, Object>> ratios(List<SystemResult> results) {
        SystemResult reference = reference(results);
        List<Map<String, Object>> out = new ArrayList<>();
        if (reference == null) {
            return out;
        }
        Map<String, Long> refLag = Figures.percentiles(reference.lag());
        Map<String, Long> refCommit = Figures.percentiles(reference.commit());
        for (SystemResult r : results) {
            if (r == reference) {
                continue;
            }
            Map<String, Long> lag = Figures.percentiles(r.lag());
            Map<String, Long> commit = Figures.percentiles(r.commit());
            Map<String, Object> lagRatio = new LinkedHashMap<>();
            Map<String, Object> commitRatio = new LinkedHashMap<>();
            for (String p : Figures.PERCENTILES) {
                lagRatio.put(p, r.lagMeasured() ? Figures.ratio(lag.get(p), refLag.get(p)) : null);
                commitRatio.put(p, Figures.ratio(commit.get(p), refCommit.get(p)));
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("system", r.system().label());
            m.put("versus", reference.system().label());
            m.put("lag", lagRatio);
            m.put("commit", commitRatio);
            out.add(m);
        }
        return out;
    }

    private static SystemResult reference(List<SystemResult> results) {
        return results.stream().filter(r -> r.system() instanceof NativeLogicalSystem).findFirst().orElse(null);
    }

    /**
     * Issue #8's target: rdmarepl's synchronous commit latency no higher than PostgreSQL's synchronous logical
     * replication's, at p50 and at p99, per rdmarepl transport.
     */
    static List<Map<String, Object>> target(List<SystemResult> results) {
        SystemResult reference = results.stream().filter(r -> r.system() instanceof NativeLogicalSystem && r.system().synchronous())
                .findFirst().orElse(null);
        List<Map<String, Object>> out = new ArrayList<>();
        for (SystemResult r : results) {
            if (!(r.system() instanceof RdmareplSystem) || !r.system().synchronous() || reference == null) {
                continue;
            }
            Map<String, Long> commit = Figures.percentiles(r.commit());
            Map<String, Long> refCommit = Figures.percentiles(reference.commit());
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("system", r.system().label());
            m.put("versus", reference.system().label());
            m.put("commit_p50_us", commit.get("p50"));
            m.put("versus_commit_p50_us", refCommit.get("p50"));
            m.put("commit_p99_us", commit.get("p99"));
            m.put("versus_commit_p99_us", refCommit.get("p99"));
            m.put("p50_ratio", Figures.ratio(commit.get("p50"), refCommit.get("p50")));
            m.put("p99_ratio", Figures.ratio(commit.get("p99"), refCommit.get("p99")));
            m.put("met", r.commit().getTotalCount() > 0 && reference.commit().getTotalCount() > 0
                    && commit.get("p50") <= refCommit.get("p50") && commit.get("p99") <= refCommit.get("p99"));
            out.add(m);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    static String table(List<SystemResult> results, Map<String, Object> report) {
        Map<String, Object> settings = (Map<String, Object>) report.get("settings");
        Map<String, Object> machine = (Map<String, Object>) report.get("machine");
        boolean sync = "sync".equals(settings.get("mode"));
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "rdmarepl bench lag%s: %s round(s) x %s s after a %s s warm-up, probe %s/s, load %s"
                        + " (%s clients, %s rows/tx, %s B rows)%n", sync ? " --mode sync" : "",
                settings.get("rounds"), settings.get("seconds"), settings.get("warmup_seconds"), settings.get("probe_rate"),
                settings.get("load"), settings.get("clients"), settings.get("rows_per_tx"), settings.get("row_bytes")));
        out.append(String.format(Locale.ROOT, "PostgreSQL %s (%s servers), fsync %s, replica-side synchronous_commit %s; %s cores,"
                        + " load average %s -> %s; %s%n",
                machine.get("postgresql"), settings.get("servers"), machine.get("fsync"), settings.get("native_sync"),
                machine.get("cores"), machine.get("load_avg_start"), machine.get("load_avg_end"), machine.get("jdk")));
        out.append(String.format(Locale.ROOT, "rdmarepl's shipper and applier reach their servers over %s; PostgreSQL's subscriber reaches the primary over tcp%n",
                settings.getOrDefault("local_connections", "tcp")));
        if (sync) {
            out.append(String.format(Locale.ROOT, "sync: the bench database's sessions run synchronous_commit = %s; rdmarepl sync.level"
                            + " %s, strict; synchronous_standby_names lists only the system whose turn it is%n",
                    settings.get("client_synchronous_commit"), settings.get("sync_level")));
            tuned(out, settings);
        }
        for (Map<String, Object> skipped : (List<Map<String, Object>>) report.getOrDefault("not_run", List.of())) {
            out.append(String.format(Locale.ROOT, "not run: %s (%s)%n", skipped.get("system"), skipped.get("reason")));
        }
        int width = Math.max(26, results.stream().mapToInt(r -> r.system().label().length()).max().orElse(0));
        if (sync) {
            out.append(commitTable(results, report, width));
            out.append(commitPath(results, width));
        }
        out.append(String.format(Locale.ROOT, "%ncommit -> applied lag, ms%n%-" + width + "s %8s %8s %8s %8s %8s %8s   %-15s %7s %9s%n",
                "", "samples", "p50", "p90", "p99", "p99.9", "max", "commit p50/p99", "tx/s", "catch-up"));
        for (SystemResult r : results) {
            Map<String, Long> lag = Figures.percentiles(r.lag());
            Map<String, Long> commit = Figures.percentiles(r.commit());
            boolean measured = r.lagMeasured();
            out.append(String.format(Locale.ROOT, "%-" + width + "s %8s %8s %8s %8s %8s %8s   %-15s %7d %9s%n", r.system().label(),
                    measured ? Long.toString(r.samples()) : "-", lagMs(measured, lag.get("p50")), lagMs(measured, lag.get("p90")),
                    lagMs(measured, lag.get("p99")), lagMs(measured, lag.get("p999")), lagMs(measured, lag.get("max")),
                    Figures.ms(commit.get("p50")) + " / " + Figures.ms(commit.get("p99")), Math.round(r.throughputTps()),
                    r.catchUpUs() < 0 ? "-" : Figures.ms(r.catchUpUs())));
        }
        for (Map<String, Object> ratio : (List<Map<String, Object>>) report.get("ratios")) {
            Map<String, Object> lag = (Map<String, Object>) ratio.get("lag");
            if (lag.get("p50") == null) {
                continue;
            }
            String name = sync ? "ratio " + ratio.get("system") + " / " + ratio.get("versus")
                    : "ratio " + ratio.get("system").toString().replace("rdmarepl over ", "") + " / postgresql";
            out.append(String.format(Locale.ROOT, "%-" + width + "s %8s %8s %8s %8s %8s %8s%n", name, "",
                    Figures.ratioText((Double) lag.get("p50")), Figures.ratioText((Double) lag.get("p90")),
                    Figures.ratioText((Double) lag.get("p99")), Figures.ratioText((Double) lag.get("p999")),
                    Figures.ratioText((Double) lag.get("max"))));
        }
        out.append(String.format(Locale.ROOT, "%nper round (%s p50 / p99 ms, order in round):%n", sync ? "commit" : "lag"));
        for (SystemResult r : results) {
            out.append(String.format(Locale.ROOT, "  %-" + width + "s", r.system().label()));
            for (RoundResult round : r.rounds()) {
                Map<String, Long> figures = Figures.percentiles(sync ? round.window().commitUs() : round.lag());
                out.append(String.format(Locale.ROOT, "  r%d: %s / %s (#%d)", round.round(), Figures.ms(figures.get("p50")),
                        Figures.ms(figures.get("p99")), round.order()));
            }
            out.append(cpuPerRound(r));
            if (r.lagMeasured()) {
                out.append(String.format(Locale.ROOT, "  %s (lag trend up to %+.1f ms/s)", r.bounded() ? "bounded" : "NOT bounded",
                        r.growthMsPerS()));
            }
            out.append(System.lineSeparator());
            for (String problem : r.notSynchronous()) {
                out.append("    NOT SYNCHRONOUS ").append(problem).append(System.lineSeparator());
            }
            if (r.returnedBeforeApplied() > 0) {
                out.append(String.format(Locale.ROOT, "    %d commit(s) RETURNED BEFORE THE REPLICA APPLIED THEM%n", r.returnedBeforeApplied()));
            }
        }
        for (SystemResult r : results) {
            if (r.system() instanceof RdmareplSystem rdmarepl) {
                out.append(stages(rdmarepl));
            }
        }
        Map<String, Object> cleanup = (Map<String, Object>) report.get("cleanup");
        out.append(String.format(Locale.ROOT, "%nleft on the servers: %s subscription(s), %s replication slot(s), %s publication(s)",
                cleanup.get("subscriptions"), cleanup.get("replication_slots"), cleanup.get("publications")));
        if (cleanup.containsKey("synchronous_standby_names")) {
            out.append(String.format(Locale.ROOT, ", synchronous_standby_names '%s'", cleanup.get("synchronous_standby_names")));
        }
        out.append(System.lineSeparator());
        List<String> problems = (List<String>) report.get("problems");
        out.append(problems.isEmpty() ? "PASS" : "FAIL: " + String.join("; ", problems)).append(System.lineSeparator());
        if (report.get("chart") != null) {
            out.append("chart: ").append(report.get("chart")).append(System.lineSeparator());
        }
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    private static void tuned(StringBuilder out, Map<String, Object> settings) {
        Object shipper = settings.get("shipper");
        Object applier = settings.get("applier");
        if (shipper instanceof Map<?, ?> s && !s.isEmpty() || applier instanceof Map<?, ?> a && !a.isEmpty()) {
            out.append(String.format(Locale.ROOT, "rdmarepl settings besides the bench's: shipper %s, applier %s%n", shipper, applier));
        }
    }

    /** Sync mode: commit latency of every system, its ratio to PostgreSQL's synchronous logical replication, and the target. */
    @SuppressWarnings("unchecked")
    private static String commitTable(List<SystemResult> results, Map<String, Object> report, int width) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%ncommit latency on the primary, ms (the probe's autocommit INSERT as its client sees it)%n"
                        + "%-" + width + "s %8s %8s %8s %8s %8s %8s %7s   %s%n",
                "", "commits", "p50", "p90", "p99", "p99.9", "max", "tx/s", "p50 / p99 vs postgresql logical sync"));
        Map<String, Map<String, Object>> ratios = new LinkedHashMap<>();
        for (Map<String, Object> ratio : (List<Map<String, Object>>) report.get("ratios")) {
            ratios.put((String) ratio.get("system"), (Map<String, Object>) ratio.get("commit"));
        }
        for (SystemResult r : results) {
            Map<String, Long> commit = Figures.percentiles(r.commit());
            Map<String, Object> ratio = ratios.get(r.system().label());
            out.append(String.format(Locale.ROOT, "%-" + width + "s %8d %8s %8s %8s %8s %8s %7d   %s%n", r.system().label(),
                    r.commit().getTotalCount(), Figures.ms(commit.get("p50")), Figures.ms(commit.get("p90")), Figures.ms(commit.get("p99")),
                    Figures.ms(commit.get("p999")), Figures.ms(commit.get("max")), Math.round(r.throughputTps()),
                    ratio == null ? "1 (reference)" : Figures.ratioText((Double) ratio.get("p50")) + " / "
                            + Figures.ratioText((Double) ratio.get("p99"))));
        }
        for (Map<String, Object> target : (List<Map<String, Object>>) report.getOrDefault("target", List.of())) {
            out.append(String.format(Locale.ROOT, "target (issue #8: rdmarepl's sync commit latency no higher than %s's): %s p50 / p99"
                            + " %s / %s ms against %s / %s ms: %s%n", target.get("versus"), target.get("system"),
                    Figures.ms((Long) target.get("commit_p50_us")), Figures.ms((Long) target.get("commit_p99_us")),
                    Figures.ms((Long) target.get("versus_commit_p50_us")), Figures.ms((Long) target.get("versus_commit_p99_us")),
                    Boolean.TRUE.equals(target.get("met")) ? "MET" : "NOT MET (" + Figures.ratioText((Double) target.get("p50_ratio"))
                            + " / " + Figures.ratioText((Double) target.get("p99_ratio")) + ")"));
        }
        return out.toString();
    }

    /** Sync mode: each synchronous commit split at the replica's applied_at, per probe. */
    private static String commitPath(List<SystemResult> results, int width) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%nwhere a synchronous commit's time goes, per probe, p50 / p90 / p99 ms (one clock):%n"
                + "%-" + width + "s   %-28s %-28s %s%n", "", "sent -> applied on replica", "applied -> commit returned", "whole commit"));
        for (SystemResult r : results) {
            if (!r.system().synchronous()) {
                continue;
            }
            if (!r.lagMeasured()) {
                out.append(String.format(Locale.ROOT, "%-" + width + "s   %-28s %-28s %s%n", r.system().label(), "- (replays WAL, no stamp)",
                        "-", triple(Figures.percentiles(r.commit()))));
                continue;
            }
            out.append(String.format(Locale.ROOT, "%-" + width + "s   %-28s %-28s %s%n", r.system().label(),
                    triple(Figures.percentiles(r.lag())), triple(Figures.percentiles(r.returnPath())),
                    triple(Figures.percentiles(r.commit()))));
        }
        for (SystemResult r : results) {
            if (r.legs().isEmpty()) {
                continue;
            }
            Map<String, Histogram> legs = r.legs();
            out.append(String.format(Locale.ROOT, "%s in four legs (the shipper's and the applier's own timers; %d probes):%n"
                            + "  sent -> in the ring (pgoutput, Debezium, shipper) %s; ring -> applied (applier pickup, apply) %s;%n"
                            + "  applied -> replica committed, feedback out %s; feedback -> commit returned (ack, offset commit,"
                            + " LSN flush, release) %s%n",
                    r.system().label(), legs.get(CommitEvents.LEGS.get(0)).getTotalCount(),
                    triple(Figures.percentiles(legs.get(CommitEvents.LEGS.get(0)))),
                    triple(Figures.percentiles(legs.get(CommitEvents.LEGS.get(1)))),
                    triple(Figures.percentiles(legs.get(CommitEvents.LEGS.get(2)))),
                    triple(Figures.percentiles(legs.get(CommitEvents.LEGS.get(3))))));
        }
        return out.toString();
    }

    /**
     * Each round's CPU of the path per 1,000 transactions the primary committed, as "cpu ms/1000 tx r1 ... r2 ...", or
     * nothing when not measured. On a host whose CPUs the load saturates, what the path takes the primary loses.
     */
    private static String cpuPerRound(SystemResult r) {
        StringBuilder cpu = new StringBuilder();
        for (RoundResult round : r.rounds()) {
            if (!Double.isNaN(round.cpuTotalMsPer1000Tx())) {
                cpu.append(String.format(Locale.ROOT, " r%d %.1f", round.round(), round.cpuTotalMsPer1000Tx()));
            }
        }
        return cpu.length() == 0 ? "" : "  cpu ms/1000 tx" + cpu;
    }

    private static String triple(Map<String, Long> p) {
        return Figures.ms(p.get("p50")) + " / " + Figures.ms(p.get("p90")) + " / " + Figures.ms(p.get("p99"));
    }

    private static String lagMs(boolean measured, long us) {
        return measured ? Figures.ms(us) : "-";
    }

    @SuppressWarnings("unchecked")
    private static String stages(RdmareplSystem system) {
        Map<String, Object> stages = system.stages().toMap();
        Map<String, Object> group = (Map<String, Object>) stages.get("group_apply_ms");
        return String.format(Locale.ROOT, "%s, where the lag goes (p50 / p90 / p99 ms; the components' histograms, bucket bounds):%n"
                        + "  capture + ship (commit -> in the ring) %s; ring -> replica commit (derived) %s;%n"
                        + "  commit -> replica commit %s; one replica group apply %s (%s groups);"
                        + " the shipper waited %.3f s for room in the ring%n",
                system.label(), spread(stages.get("commit_to_ring_ms")), spread(stages.get("ring_to_replica_commit_ms_derived")),
                spread(stages.get("commit_to_replica_commit_ms")), spread(group), group.get("count"), system.backPressureSeconds());
    }

    @SuppressWarnings("unchecked")
    private static String spread(Object figures) {
        Map<String, Object> m = (Map<String, Object>) figures;
        StringBuilder out = new StringBuilder();
        for (String p : new String[] {"p50", "p90", "p99"}) {
            Object ms = m.get(p);
            out.append(out.length() == 0 ? "" : " / ").append(ms == null ? "-" : Figures.ms(Math.round(((Number) ms).doubleValue() * 1000)));
        }
        return out.toString();
    }
}
