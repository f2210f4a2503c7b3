package io.rdmarepl.harness.bench.copy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The figures of {@code bench copy}: per system the median seconds over the rounds (and each round's), the rows and
 * bytes the replica held after its copy, and the source they must equal; the ratio rdmarepl / PostgreSQL; the machine;
 * what was left behind. As one JSON document ({@link #build}) and as a table for people ({@link #table}).
 */
final class CopyBenchReport {
    private CopyBenchReport() {
    }

    /**
     * @param source     rows of each table on the primary
     * @param settings   per system name, what it was set to
     * @param cleanup    what the benchmark left on the servers (all zero after a good run)
     */
    static Map<String, Object> build(int scale, int rounds, Map<String, Long> source, long sourceBytes, List<CopyRound> results,
                                     Map<String, Map<String, Object>> settings, Map<String, Object> machine,
                                     Map<String, Long> cleanup) {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("bench", "copy");
        report.put("scale", scale);
        report.put("rounds", rounds);
        report.put("source", Map.of("rows", source.values().stream().mapToLong(Long::longValue).sum(), "bytes", sourceBytes,
                "tables", source));
        List<Map<String, Object>> systems = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (String name : settings.keySet()) {
            List<CopyRound> mine = results.stream().filter(r -> r.system().equals(name)).toList();
            if (mine.isEmpty()) {
                continue;
            }
            CopyRound last = mine.get(mine.size() - 1);
            Map<String, Object> system = new LinkedHashMap<>();
            system.put("name", name);
            system.put("seconds", round3(median(mine)));
            system.put("rows", last.totalRows());
            system.put("bytes", last.bytes());
            system.put("round_seconds", mine.stream().map(r -> round3(r.seconds())).toList());
            system.put("tables", last.rows());
            system.put("settings", settings.get(name));
            system.put("round_cpu_ms", mine.stream().map(CopyRound::cpuMs).toList());
            if (!last.details().isEmpty()) {
                system.put("round_details", mine.stream().map(CopyRound::details).toList());
            }
            systems.add(system);
            mine.stream().filter(r -> r.problem() != null).forEach(r -> problems.add(name + " round " + r.round() + ": " + r.problem()));
        }
        report.put("systems", systems);
        Double rdmarepl = seconds(systems, "rdmarepl");
        Double postgresql = seconds(systems, "postgresql");
        report.put("ratio", rdmarepl != null && postgresql != null && postgresql > 0 ? round3(rdmarepl / postgresql) : null);
        report.put("machine", machine);
        report.put("cleanup", cleanup);
        cleanup.forEach((what, count) -> {
            if (count != 0) {
                problems.add(count + " " + what + " left behind");
            }
        });
        report.put("problems", problems);
        report.put("pass", problems.isEmpty() && systems.size() == settings.size());
        return report;
    }

    /** The table: one line per system, then the ratio, the machine and any problem. */
    static String table(Map<String, Object> report) {
        StringBuilder out = new StringBuilder();
        @SuppressWarnings("unchecked")
        Map<String, Object> source = (Map<String, Object>) report.get("source");
        @SuppressWarnings("unchecked")
        Map<String, Object> machine = (Map<String, Object>) report.get("machine");
        out.append(String.format(Locale.ROOT, "bench copy: pgbench scale %s, %,d rows in 4 tables (%s with indexes), %s round(s),"
                        + " fsync %s, %s cores%n", report.get("scale"), (Long) source.get("rows"), megabytes((Long) source.get("bytes")),
                report.get("rounds"), machine.get("fsync"), machine.get("cores")));
        out.append(String.format(Locale.ROOT, "%-12s %9s  %-24s %16s %14s%n", "system", "seconds", "each round (s)", "rows on replica",
                "on replica"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> systems = (List<Map<String, Object>>) report.get("systems");
        for (Map<String, Object> s : systems) {
            out.append(String.format(Locale.ROOT, "%-12s %9.2f  %-24s %,16d %14s%n", s.get("name"), (Double) s.get("seconds"),
                    eachRound(s.get("round_seconds")), (Long) s.get("rows"), megabytes((Long) s.get("bytes"))));
        }
        for (Map<String, Object> s : systems) {
            if (s.get("round_details") instanceof List<?> details) {
                for (int i = 0; i < details.size(); i++) {
                    out.append(String.format(Locale.ROOT, "%s round %d: %s%n", s.get("name"), i + 1, details.get(i)));
                }
            }
        }
        for (Map<String, Object> s : systems) {
            if (s.get("round_cpu_ms") instanceof List<?> cpu) {
                for (int i = 0; i < cpu.size(); i++) {
                    out.append(String.format(Locale.ROOT, "%s round %d CPU ms: %s%n", s.get("name"), i + 1, cpu.get(i)));
                }
            }
        }
        if (report.get("ratio") != null) {
            out.append(String.format(Locale.ROOT, "rdmarepl / postgresql: %.2f (seconds, median of the rounds)%n", (Double) report.get("ratio")));
        }
        out.append(String.format(Locale.ROOT, "load average %s -> %s%n", machine.get("load_avg_start"), machine.get("load_avg_end")));
        @SuppressWarnings("unchecked")
        List<String> problems = (List<String>) report.get("problems");
        problems.forEach(p -> out.append("PROBLEM: ").append(p).append(System.lineSeparator()));
        return out.toString();
    }

    private static String eachRound(Object seconds) {
        List<String> each = new ArrayList<>();
        for (Object s : (List<?>) seconds) {
            each.add(String.format(Locale.ROOT, "%.2f", ((Number) s).doubleValue()));
        }
        return String.join(", ", each);
    }

    private static Double seconds(List<Map<String, Object>> systems, String name) {
        return systems.stream().filter(s -> s.get("name").equals(name)).map(s -> (Double) s.get("seconds")).findFirst().orElse(null);
    }

    private static double median(List<CopyRound> rounds) {
        double[] seconds = rounds.stream().mapToDouble(CopyRound::seconds).toArray();
        Arrays.sort(seconds);
        int n = seconds.length;
        return n % 2 == 1 ? seconds[n / 2] : (seconds[n / 2 - 1] + seconds[n / 2]) / 2;
    }

    private static double round3(double value) {
        return Math.round(value * 1000) / 1000.0;
    }

    private static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1048576.0);
    }
}
