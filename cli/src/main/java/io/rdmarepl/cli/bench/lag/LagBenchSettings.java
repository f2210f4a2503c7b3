package io.rdmarepl.cli.bench.lag;

import io.rdmarepl.channel.ChannelSecurity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Every {@code bench lag} option, validated at once: a bad run fails before any server starts, with
 * each problem naming its option, value and rule. Frozen afterwards; {@link #toMap()} is the report's
 * {@code settings}.
 *
 * @param primary null unless {@code --primary}/{@code --replica} attach to running servers
 */
record LagBenchSettings(int seconds, int warmupSeconds, int rounds, int probeRate, Load load, int clients, int rowsPerTx,
                        int rowBytes, List<String> transports, String nativeSync, boolean fsync, Endpoint primary,
                        Endpoint replica, String primaryUrl, String replicaUrl, String json, Path chart, int capturePollMs) {

    static final Set<String> TRANSPORTS = Set.of("shm", "softrdma");
    static final Set<String> SYNCHRONOUS_COMMIT = Set.of("off", "local", "remote_write", "remote_apply", "on");

    /**
     * @param environment where {@value ChannelSecurity#SECRET_ENV} is looked up (softrdma)
     * @throws IllegalArgumentException listing every problem, one per line
     */
    static LagBenchSettings of(LagBenchCommand o, Map<String, String> environment) {
        List<String> problems = new ArrayList<>();
        range(problems, "--seconds", o.seconds, 1, 3600);
        range(problems, "--warmup-seconds", o.warmupSeconds, 0, 600);
        range(problems, "--rounds", o.rounds, 1, 100);
        range(problems, "--probe-rate", o.probeRate, 1, 10_000);
        range(problems, "--clients", o.clients, 1, 64);
        range(problems, "--rows-per-tx", o.rowsPerTx, 1, 1000);
        range(problems, "--row-bytes", o.rowBytes, 0, 1 << 20);
        range(problems, "--capture-poll-ms", o.capturePollMs, 1, 1000);
        Load load = null;
        try {
            load = Load.parse(o.load);
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        List<String> transports = transports(problems, o.transports, environment);
        String nativeSync = o.nativeSync == null ? "" : o.nativeSync.strip().toLowerCase(Locale.ROOT);
        if (!SYNCHRONOUS_COMMIT.contains(nativeSync)) {
            problems.add("--native-sync " + o.nativeSync + ": must be one of off, local, remote_write, remote_apply, on");
        }
        boolean attached = o.primaryUrl != null || o.replicaUrl != null;
        if (attached && (o.primaryUrl == null || o.replicaUrl == null)) {
            problems.add((o.primaryUrl == null ? "--replica" : "--primary") + ": give both --primary and --replica, or neither (embedded servers)");
        }
        Endpoint primary = attached ? endpoint(problems, "--primary", o.primaryUrl) : null;
        Endpoint replica = attached ? endpoint(problems, "--replica", o.replicaUrl) : null;
        if (o.fsync != null && !o.fsync.equals("on") && !o.fsync.equals("off")) {
            problems.add("--fsync " + o.fsync + ": must be on or off");
        } else if (o.fsync != null && attached) {
            problems.add("--fsync " + o.fsync + ": only for the embedded servers; attached servers keep their own settings (reported)");
        }
        if (o.json != null && !o.json.equals("-")) {
            writable(problems, "--json", Path.of(o.json));
        }
        if (o.chart != null) {
            String name = o.chart.getFileName() == null ? "" : o.chart.getFileName().toString().toLowerCase(Locale.ROOT);
            if (!name.endsWith(".png") && !name.endsWith(".svg")) {
                problems.add("--chart " + o.chart + ": must end in .png or .svg");
            }
            writable(problems, "--chart", o.chart);
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid options:\n  " + String.join("\n  ", problems));
        }
        return new LagBenchSettings(o.seconds, o.warmupSeconds, o.rounds, o.probeRate, load, o.clients, o.rowsPerTx, o.rowBytes,
                transports, nativeSync, !"off".equals(o.fsync), primary, replica, o.primaryUrl, o.replicaUrl, o.json, o.chart,
                o.capturePollMs);
    }

    boolean attached() {
        return primary != null;
    }

    private static void range(List<String> problems, String option, int value, int min, int max) {
        if (value < min || value > max) {
            problems.add(option + " " + value + ": must be " + min + ".." + max);
        }
    }

    private static List<String> transports(List<String> problems, List<String> given, Map<String, String> environment) {
        Set<String> chosen = new LinkedHashSet<>();
        for (String raw : given == null ? List.<String>of() : given) {
            String t = raw.strip().toLowerCase(Locale.ROOT);
            if (t.equals("rdma")) {
                problems.add("--transports rdma: not in bench lag (the shipper and applier run in this process);"
                        + " softrdma runs the same verbs code over the software provider");
            } else if (!TRANSPORTS.contains(t)) {
                problems.add("--transports " + raw + ": must be shm or softrdma (comma-separated)");
            } else if (!chosen.add(t)) {
                problems.add("--transports " + raw + ": named twice");
            }
        }
        if (chosen.isEmpty() && problems.stream().noneMatch(p -> p.startsWith("--transports"))) {
            problems.add("--transports: name at least one of shm, softrdma");
        }
        if (chosen.contains("softrdma")) {
            String secret = environment.get(ChannelSecurity.SECRET_ENV);
            if (secret == null || secret.isBlank()) {
                problems.add("--transports softrdma: set " + ChannelSecurity.SECRET_ENV + " (hex, or text of 16+ bytes);"
                        + " the in-process shipper and applier read the channel secret from the environment");
            } else {
                try {
                    ChannelSecurity.ofText(secret);
                } catch (IllegalArgumentException e) {
                    problems.add("--transports softrdma: " + ChannelSecurity.SECRET_ENV + " " + e.getMessage());
                }
            }
        }
        return List.copyOf(chosen);
    }

    private static Endpoint endpoint(List<String> problems, String option, String url) {
        if (url == null) {
            return null;
        }
        try {
            return Endpoint.parse(option, url);
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
            return null;
        }
    }

    private static void writable(List<String> problems, String option, Path file) {
        Path parent = file.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            problems.add(option + " " + file + ": directory " + parent + " does not exist");
        } else if (Files.isDirectory(file)) {
            problems.add(option + " " + file + ": is a directory");
        }
    }

    /** Every option as given (passwords masked), for the report. */
    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seconds", seconds);
        m.put("warmup_seconds", warmupSeconds);
        m.put("rounds", rounds);
        m.put("probe_rate", probeRate);
        m.put("load", load.toString());
        m.put("clients", clients);
        m.put("rows_per_tx", rowsPerTx);
        m.put("row_bytes", rowBytes);
        m.put("transports", transports);
        m.put("native_sync", nativeSync);
        m.put("rdmarepl_apply_synchronous_commit", nativeSync);
        m.put("capture_poll_ms", capturePollMs);
        m.put("servers", attached() ? "attached" : "embedded");
        m.put("fsync", attached() ? null : fsync ? "on" : "off");
        m.put("primary", Endpoint.masked(primaryUrl));
        m.put("replica", Endpoint.masked(replicaUrl));
        m.put("json", json);
        m.put("chart", chart == null ? null : chart.toString());
        return m;
    }
}
