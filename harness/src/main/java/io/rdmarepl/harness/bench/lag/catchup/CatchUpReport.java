package io.rdmarepl.harness.bench.lag.catchup;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The figures of {@code bench lag --catch-up}: per system (rdmarepl per {@code apply.workers} value, PostgreSQL's own)
 * the medians over the rounds of the backlog, the seconds to apply it and the transactions per second, each round's
 * values, and whether the replica equalled the primary every time; per round the backlog the load left; the machine; what
 * was left behind. As one JSON document ({@link #build}) and as a table for people ({@link #table}).
 */
final class CatchUpReport {
    private CatchUpReport() {
    }

    /**
     * @param notRun  systems asked for that could not run here ({@code system}, {@code reason})
     * @param cleanup what the benchmark left on the servers (all zero after a good run)
     */
    static Map<String, Object> build(List<CatchUpSystem> systems, CatchUpRun.Result result, int rounds, List<Map<String, Object>> notRun,
                                     Map<String, Object> settings, Map<String, Object> machine, Map<String, Long> cleanup) {
        Map<String, Object> report = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        List<Map<String, Object>> entries = new ArrayList<>();
        Double nativeRate = null;
        for (CatchUpSystem system : systems) {
            Map<String, Object> entry = entry(system, result.rounds(), rounds, problems);
            entries.add(entry);
            if (system instanceof NativeCatchUp && entry.get("tx_per_s") instanceof Double rate) {
                nativeRate = rate;
            }
        }
        for (Map<String, Object> entry : entries) {
            if (entry.containsKey("apply_workers")) {
                entry.put("tx_per_s_vs_postgresql", nativeRate != null && nativeRate > 0 && entry.get("tx_per_s") instanceof Double rate
                        ? round3(rate / nativeRate) : null);
            }
        }
        List<Map<String, Object>> backlogs = new ArrayList<>();
        for (Backlog b : result.backlogs()) {
            backlogs.add(backlog(b));
            b.inconsistencies().forEach(i -> problems.add("round " + b.round() + ", the primary: " + i));
            if (b.transactions() <= 0) {
                problems.add("round " + b.round() + ": the load committed no transaction");
            }
        }
        cleanup.forEach((what, count) -> {
            if (count != 0) {
                problems.add(count + " " + what + " left behind");
            }
        });
        report.put("bench", "lag");
        report.put("mode", "catch-up");
        report.put("pass", problems.isEmpty());
        report.put("catch_up", entries);
        report.put("backlogs", backlogs);
        report.put("not_run", notRun);
        report.put("problems", problems);
        report.put("settings", settings);
        report.put("machine", machine);
        report.put("cleanup", cleanup);
        return report;
    }

    private static Map<String, Object> entry(CatchUpSystem system, List<CatchUpRound> all, int rounds, List<String> problems) {
        List<CatchUpRound> mine = all.stream().filter(r -> r.label().equals(system.label())).toList();
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", system.name());
        entry.put("label", system.label());
        entry.put("transport", system.transport());
        if (system.applyWorkers() != null) {
            entry.put("apply_workers", system.applyWorkers());
        }
        entry.put("backlog_transactions", mine.isEmpty() ? null : Math.round(median(mine.stream().mapToDouble(CatchUpRound::backlogTransactions))));
        entry.put("apply_seconds", mine.isEmpty() ? null : round3(median(mine.stream().mapToDouble(CatchUpRound::applySeconds))));
        entry.put("tx_per_s", mine.isEmpty() ? null : round1(median(mine.stream().mapToDouble(CatchUpRound::transactionsPerSecond))));
        entry.put("replica_equal", !mine.isEmpty() && mine.stream().allMatch(CatchUpRound::equal));
        List<Map<String, Object>> each = new ArrayList<>();
        for (CatchUpRound r : mine) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("round", r.round());
            m.put("order", r.order());
            m.put("backlog_transactions", r.backlogTransactions());
            m.put("backlog_wal_bytes", r.backlogWalBytes());
            m.put("apply_seconds", round3(r.applySeconds()));
            m.put("tx_per_s", round1(r.transactionsPerSecond()));
            Map<String, Object> check = new LinkedHashMap<>();
            check.put("replica_equal", r.equal());
            check.put("tables_compared", r.check().tables());
            check.put("rows_compared", r.check().rows());
            check.put("differences", r.check().differences());
            check.put("first_differences", r.check().listed());
            m.put("check", check);
            if (!r.details().isEmpty()) {
                m.put("details", r.details());
            }
            each.add(m);
            if (!r.equal()) {
                problems.add(system.label() + " round " + r.round() + ": " + r.check().describe());
            }
        }
        entry.put("rounds", each);
        if (mine.size() != rounds) {
            problems.add(system.label() + ": " + mine.size() + " of " + rounds + " rounds measured");
        }
        return entry;
    }

    private static Map<String, Object> backlog(Backlog b) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("round", b.round());
        m.put("transactions", b.transactions());
        m.put("load_seconds", round3(b.load().seconds()));
        m.put("load_tx_per_s", round1(b.load().transactionsPerSecond()));
        m.put("retries", b.load().retries());
        m.put("wal_bytes", b.walBytes());
        m.put("start_lsn", b.startLsn());
        m.put("end_lsn", b.endLsn());
        m.put("primary", b.primary().values());
        m.put("primary_consistent", b.inconsistencies().isEmpty());
        return m;
    }

    /** The table: the backlog, one line per system, what did not run, the machine, the cleanup and any problem. */
    @SuppressWarnings("unchecked")
    static String table(Map<String, Object> report) {
        StringBuilder out = new StringBuilder();
        Map<String, Object> settings = (Map<String, Object>) report.get("settings");
        Map<String, Object> machine = (Map<String, Object>) report.get("machine");
        out.append(String.format(Locale.ROOT, "bench lag --catch-up %s: pgbench %s, scale %s, %s clients flat out, %s round(s);"
                        + " PostgreSQL %s (%s, fsync %s), replica-side synchronous_commit %s; %s cores, load average %s -> %s%n",
                settings.get("catch_up_seconds"), settings.getOrDefault("script", CatchUpOptions.TPCB_LIKE), settings.get("scale"), settings.get("clients"), settings.get("rounds"),
                machine.get("postgresql"), settings.get("servers"), machine.get("fsync"), settings.get("native_sync"), machine.get("cores"),
                machine.get("load_avg_start"), machine.get("load_avg_end")));
        out.append(String.format(Locale.ROOT, "rdmarepl's shipper and applier reach their servers over %s; PostgreSQL's subscriber reaches the primary over tcp%n",
                settings.getOrDefault("local_connections", "tcp")));
        for (Map<String, Object> b : (List<Map<String, Object>>) report.get("backlogs")) {
            out.append(String.format(Locale.ROOT, "round %s backlog: %,d transactions (%,.0f tx/s on the primary), %.1f MB of WAL%n",
                    b.get("round"), (Long) b.get("transactions"), (Double) b.get("load_tx_per_s"), ((Long) b.get("wal_bytes")) / 1048576.0));
        }
        out.append(String.format(Locale.ROOT, "%-44s %12s %10s %10s %14s  %s%n", "system (medians of the rounds)", "backlog tx",
                "apply s", "tx/s", "vs postgresql", "replica = primary"));
        for (Map<String, Object> e : (List<Map<String, Object>>) report.get("catch_up")) {
            List<Map<String, Object>> rounds = (List<Map<String, Object>>) e.get("rounds");
            long equal = rounds.stream().filter(r -> Boolean.TRUE.equals(((Map<String, Object>) r.get("check")).get("replica_equal"))).count();
            Object ratio = e.get("tx_per_s_vs_postgresql");
            out.append(String.format(Locale.ROOT, "%-44s %12s %10s %10s %14s  %s%n", e.get("label"), number(e.get("backlog_transactions"), "%,d"),
                    number(e.get("apply_seconds"), "%.2f"), number(e.get("tx_per_s"), "%,.0f"),
                    ratio == null ? "-" : String.format(Locale.ROOT, "%.2fx", (Double) ratio),
                    (equal == rounds.size() && !rounds.isEmpty() ? "yes" : "NO") + " (" + equal + "/" + rounds.size() + " rounds)"));
        }
        for (Map<String, Object> skipped : (List<Map<String, Object>>) report.get("not_run")) {
            out.append("not run: ").append(skipped.get("system")).append(": ").append(skipped.get("reason")).append(System.lineSeparator());
        }
        Map<String, Object> cleanup = (Map<String, Object>) report.get("cleanup");
        out.append("left behind: ").append(cleanup).append(System.lineSeparator());
        for (String p : (List<String>) report.get("problems")) {
            out.append("PROBLEM: ").append(p).append(System.lineSeparator());
        }
        return out.toString();
    }

    private static String number(Object value, String format) {
        return value == null ? "-" : String.format(Locale.ROOT, format, value);
    }

    static double median(java.util.stream.DoubleStream values) {
        double[] v = values.sorted().toArray();
        int n = v.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    private static double round1(double value) {
        return Math.round(value * 10) / 10.0;
    }

    private static double round3(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
