package io.rdmarepl.cli.bench.lag;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The results as one JSON object, and as a table for people with rdmarepl / PostgreSQL ratios per percentile. */
final class LagBenchReport {
    private LagBenchReport() {
    }

    static Map<String, Object> build(List<SystemResult> results, Map<String, Object> settings, Map<String, Object> machine,
                                     Map<String, Object> leftovers, String chart) {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("pass", results.stream().allMatch(r -> r.samples() > 0 && r.missing() == 0) && Leftovers.none(leftovers));
        report.put("systems", results.stream().map(SystemResult::toMap).toList());
        report.put("ratios", ratios(results));
        report.put("settings", settings);
        report.put("machine", machine);
        report.put("cleanup", leftovers);
        report.put("chart", chart);
        return report;
    }

    /** Per rdmarepl transport: its lag and commit percentiles divided by PostgreSQL's. */
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
                lagRatio.put(p, Figures.ratio(lag.get(p), refLag.get(p)));
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

    @SuppressWarnings("unchecked")
    static String table(List<SystemResult> results, Map<String, Object> report) {
        Map<String, Object> settings = (Map<String, Object>) report.get("settings");
        Map<String, Object> machine = (Map<String, Object>) report.get("machine");
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "rdmarepl bench lag: %s round(s) x %s s after a %s s warm-up, probe %s/s, load %s"
                        + " (%s clients, %s rows/tx, %s B rows)%n",
                settings.get("rounds"), settings.get("seconds"), settings.get("warmup_seconds"), settings.get("probe_rate"),
                settings.get("load"), settings.get("clients"), settings.get("rows_per_tx"), settings.get("row_bytes")));
        out.append(String.format(Locale.ROOT, "PostgreSQL %s (%s servers), fsync %s, replica-side synchronous_commit %s; %s cores,"
                        + " load average %s -> %s; %s%n",
                machine.get("postgresql"), settings.get("servers"), machine.get("fsync"), settings.get("native_sync"),
                machine.get("cores"), machine.get("load_avg_start"), machine.get("load_avg_end"), machine.get("jdk")));
        int width = Math.max(24, results.stream().mapToInt(r -> r.system().label().length()).max().orElse(0));
        out.append(String.format(Locale.ROOT, "%ncommit -> applied lag, ms%n%-" + width + "s %8s %8s %8s %8s %8s %8s   %-15s %7s %9s%n",
                "", "samples", "p50", "p90", "p99", "p99.9", "max", "commit p50/p99", "tx/s", "catch-up"));
        for (SystemResult r : results) {
            Map<String, Long> lag = Figures.percentiles(r.lag());
            Map<String, Long> commit = Figures.percentiles(r.commit());
            out.append(String.format(Locale.ROOT, "%-" + width + "s %8d %8s %8s %8s %8s %8s   %-15s %7d %9s%n", r.system().label(),
                    r.samples(), Figures.ms(lag.get("p50")), Figures.ms(lag.get("p90")), Figures.ms(lag.get("p99")),
                    Figures.ms(lag.get("p999")), Figures.ms(lag.get("max")),
                    Figures.ms(commit.get("p50")) + " / " + Figures.ms(commit.get("p99")), Math.round(r.throughputTps()),
                    Figures.ms(r.catchUpUs())));
        }
        for (Map<String, Object> ratio : (List<Map<String, Object>>) report.get("ratios")) {
            Map<String, Object> lag = (Map<String, Object>) ratio.get("lag");
            out.append(String.format(Locale.ROOT, "%-" + width + "s %8s %8s %8s %8s %8s %8s%n", "ratio " + ratio.get("system").toString()
                            .replace("rdmarepl over ", "") + " / postgresql", "",
                    Figures.ratioText((Double) lag.get("p50")), Figures.ratioText((Double) lag.get("p90")),
                    Figures.ratioText((Double) lag.get("p99")), Figures.ratioText((Double) lag.get("p999")),
                    Figures.ratioText((Double) lag.get("max"))));
        }
        out.append(String.format(Locale.ROOT, "%nper round (p50 / p99 ms, order in round):%n"));
        for (SystemResult r : results) {
            out.append(String.format(Locale.ROOT, "  %-" + width + "s", r.system().label()));
            for (RoundResult round : r.rounds()) {
                Map<String, Long> lag = Figures.percentiles(round.lag());
                out.append(String.format(Locale.ROOT, "  r%d: %s / %s (#%d)", round.round(), Figures.ms(lag.get("p50")),
                        Figures.ms(lag.get("p99")), round.order()));
            }
            out.append(String.format(Locale.ROOT, "  %s (lag trend up to %+.1f ms/s)%n",
                    r.bounded() ? "bounded" : "NOT bounded", r.growthMsPerS()));
        }
        for (SystemResult r : results) {
            if (r.system() instanceof RdmareplSystem rdmarepl) {
                out.append(stages(rdmarepl));
            }
        }
        Map<String, Object> cleanup = (Map<String, Object>) report.get("cleanup");
        out.append(String.format(Locale.ROOT, "%nleft on the servers: %s subscription(s), %s replication slot(s), %s publication(s)%n",
                cleanup.get("subscriptions"), cleanup.get("replication_slots"), cleanup.get("publications")));
        if (report.get("chart") != null) {
            out.append("chart: ").append(report.get("chart")).append(System.lineSeparator());
        }
        return out.toString();
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
