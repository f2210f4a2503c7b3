package io.rdmarepl.harness.bench.lag;

import io.rdmarepl.applier.config.ApplierConfig;
import io.rdmarepl.channel.ChannelSecurity;
import io.rdmarepl.harness.bench.lag.catchup.CatchUpOptions;
import io.rdmarepl.harness.bench.lag.catchup.CatchUpSettings;
import io.rdmarepl.shipper.config.ShipperConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * Every {@code bench lag} option, validated at once: a bad run fails before any server starts, with
 * each problem naming its option, value and rule. Frozen afterwards; {@link #toMap()} is the report's
 * {@code settings}.
 *
 * @param primary          null unless {@code --primary}/{@code --replica} attach to running servers
 * @param mode             {@code lag} (rdmarepl async against PostgreSQL's logical replication) or {@code sync} (commit
 *                         latency: rdmarepl async and sync, PostgreSQL's synchronous logical and physical standbys)
 * @param syncLevel        sync mode: {@code remote_apply} or {@code remote_flush}, what a commit waits for
 * @param nativeSync       synchronous_commit of both replica-side applies (default off, in sync mode on)
 * @param shipperSettings  {@code --shipper KEY=VALUE}: shipper keys the bench does not set itself
 * @param applierSettings  {@code --applier KEY=VALUE}: applier keys the bench does not set itself
 * @param catchUp          {@code --catch-up} and its options; null when lag (or sync commit latency) is measured instead
 */
record LagBenchSettings(int seconds, int warmupSeconds, int rounds, int probeRate, Load load, int clients, int rowsPerTx,
                        int rowBytes, List<String> transports, String nativeSync, boolean fsync, Endpoint primary,
                        Endpoint replica, String primaryUrl, String replicaUrl, String json, Path chart, int capturePollMs,
                        String mode, String syncLevel, Map<String, String> shipperSettings, Map<String, String> applierSettings,
                        CatchUpOptions catchUp, boolean localSockets) {

    static final Set<String> TRANSPORTS = Set.of("shm", "softrdma");
    static final Set<String> SYNCHRONOUS_COMMIT = Set.of("off", "local", "remote_write", "remote_apply", "on");
    static final Set<String> MODES = Set.of("lag", "sync");
    static final Set<String> SYNC_LEVELS = Set.of("remote_apply", "remote_flush");
    /** Shipper keys the bench sets itself (the option that sets them, if any, in the message). */
    static final Map<String, String> SHIPPER_OWN = Map.ofEntries(Map.entry("source.name", ""), Map.entry("database.", ""),
            Map.entry("slot.name", ""), Map.entry("publication.name", ""), Map.entry("publication.tables", ""), Map.entry("standbys", ""),
            Map.entry("standby.", ""), Map.entry("admin.address", ""), Map.entry("admin.token", ""), Map.entry("activation", ""),
            Map.entry("snapshot.mode", ""), Map.entry("capture.poll.interval.ms", "--capture-poll-ms"),
            Map.entry("replication.mode", "--mode"), Map.entry("sync.level", "--sync-level"));
    /** Applier keys the bench sets itself. */
    static final Map<String, String> APPLIER_OWN = Map.ofEntries(Map.entry("source.name", ""), Map.entry("activation", ""),
            Map.entry("ring.uri", ""), Map.entry("ring.epoch", ""), Map.entry("replica.jdbc.url", ""), Map.entry("replica.user", ""),
            Map.entry("replica.password", ""), Map.entry("admin.port", ""), Map.entry("admin.bind", ""), Map.entry("admin.token", ""),
            Map.entry("apply.synchronous.commit", "--native-sync"));

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
        CatchUpOptions catchUp = CatchUpOptions.parse(o.catchUp, o.applyWorkers, o.scale, o.script, o.given(), o.applierSettings,
                problems);
        Load load = null;
        try {
            load = Load.parse(o.load);
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        List<String> transports = transports(problems, o.transports, environment);
        String mode = o.mode == null ? "lag" : o.mode.strip().toLowerCase(Locale.ROOT);
        if (!MODES.contains(mode)) {
            problems.add("--mode " + o.mode + ": must be lag or sync");
        }
        boolean sync = mode.equals("sync");
        String syncLevel = o.syncLevel == null ? "remote_apply" : o.syncLevel.strip().toLowerCase(Locale.ROOT);
        if (!SYNC_LEVELS.contains(syncLevel)) {
            problems.add("--sync-level " + o.syncLevel + ": must be remote_apply or remote_flush");
        } else if (o.syncLevel != null && !sync) {
            problems.add("--sync-level " + o.syncLevel + ": only with --mode sync");
        }
        // sync: the replica-side commits are durable (on), or rdmarepl's durable position would follow the replica's WAL writer
        String nativeSync = o.nativeSync == null ? (sync ? "on" : "off") : o.nativeSync.strip().toLowerCase(Locale.ROOT);
        if (!SYNCHRONOUS_COMMIT.contains(nativeSync)) {
            problems.add("--native-sync " + o.nativeSync + ": must be one of off, local, remote_write, remote_apply, on");
        }
        Map<String, String> shipperSettings = componentSettings(problems, "--shipper", o.shipperSettings, SHIPPER_OWN);
        Map<String, String> applierSettings = componentSettings(problems, "--applier", o.applierSettings, APPLIER_OWN);
        if (problems.stream().noneMatch(p -> p.startsWith("--shipper") || p.startsWith("--capture-poll-ms"))) {
            checkShipper(problems, shipperSettings, o.capturePollMs);
        }
        if (problems.stream().noneMatch(p -> p.startsWith("--applier"))) {
            checkApplier(problems, applierSettings);
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
        String connection = o.localConnections == null ? "socket" : o.localConnections;
        if (!connection.equals("socket") && !connection.equals("tcp")) {
            problems.add("--local-connections " + o.localConnections + ": must be socket or tcp");
        } else if (connection.equals("socket") && attached && o.localConnections != null && o.given().contains("--local-connections")) {
            problems.add("--local-connections socket: only for the embedded servers; with --primary the shipper connects as the URL says");
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
                o.capturePollMs, mode, syncLevel, shipperSettings, applierSettings, catchUp, !attached && connection.equals("socket"));
    }

    /** The settings of a {@code --catch-up} run; only when {@link #catchUp()} is set. */
    CatchUpSettings catchUpSettings() {
        return new CatchUpSettings(catchUp, rounds, clients, transports, nativeSync, fsync, primary, replica, capturePollMs,
                shipperSettings, applierSettings, json, Endpoint.masked(primaryUrl), Endpoint.masked(replicaUrl), localSockets);
    }

    boolean attached() {
        return primary != null;
    }

    /** {@code --mode sync}: commit latency of synchronous replication. */
    boolean syncMode() {
        return "sync".equals(mode);
    }

    /** synchronous_commit of the measured sessions in sync mode: remote_apply, or on for remote_flush. */
    String clientSynchronousCommit() {
        return "remote_flush".equals(syncLevel) ? "on" : "remote_apply";
    }

    /** {@code KEY=VALUE} pairs as given, refusing the keys the bench sets itself; sorted, for the report. */
    private static Map<String, String> componentSettings(List<String> problems, String option, Map<String, String> given,
                                                         Map<String, String> own) {
        Map<String, String> out = new TreeMap<>();
        if (given == null) {
            return out;
        }
        given.forEach((rawKey, value) -> {
            String key = rawKey.strip();
            String owner = own.entrySet().stream().filter(e -> e.getKey().endsWith(".") ? key.startsWith(e.getKey()) : key.equals(e.getKey()))
                    .map(Map.Entry::getValue).findFirst().orElse(null);
            if (owner != null) {
                problems.add(option + " " + key + "=" + (key.contains("password") ? "******" : value) + ": the benchmark sets "
                        + key + " itself" + (owner.isEmpty() ? "" : "; use " + owner));
            } else {
                out.put(key, value == null ? "" : value.strip());
            }
        });
        return out;
    }

    /** The shipper's own validation of the --shipper keys, on a configuration like the bench's (nothing is contacted). */
    private static void checkShipper(List<String> problems, Map<String, String> settings, int capturePollMs) {
        Properties p = new Properties();
        settings.forEach(p::setProperty);
        p.setProperty("standbys", "replica");
        p.setProperty("standby.replica.uri", "shm:///dev/shm/rdmarepl-bench-lag-check");
        p.setProperty("admin.address", "127.0.0.1:0");
        p.setProperty("capture.poll.interval.ms", Integer.toString(capturePollMs));
        try {
            ShipperConfig.load(p);
        } catch (RuntimeException e) {
            problems.add("--shipper: " + oneLine(e.getMessage()));
        }
    }

    /** "shipper configuration: 2 problems:\n  a\n  b" as "shipper configuration: 2 problems: a; b". */
    static String oneLine(String message) {
        String m = message == null ? "" : message.strip();
        return m.replaceFirst(":\\s*\n\\s*", ": ").replaceAll("\\s*\n\\s*", "; ");
    }

    private static void checkApplier(List<String> problems, Map<String, String> settings) {
        Properties p = new Properties();
        settings.forEach(p::setProperty);
        p.setProperty("source.name", RdmareplSystem.SOURCE_NAME);
        p.setProperty("ring.uri", "shm:///dev/shm/rdmarepl-bench-lag-check");
        p.setProperty("replica.jdbc.url", "jdbc:postgresql://127.0.0.1:5432/rdmarepl_lag");
        p.setProperty("admin.port", "0");
        try {
            ApplierConfig.load(p);
        } catch (RuntimeException e) {
            problems.add("--applier: " + oneLine(e.getMessage()));
        }
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
        m.put("mode", mode);
        m.put("capture_engine", shipperSettings.getOrDefault("capture.engine", "pgoutput"));
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
        m.put("sync_level", syncMode() ? syncLevel : null);
        m.put("client_synchronous_commit", syncMode() ? clientSynchronousCommit() : null);
        m.put("capture_poll_ms", capturePollMs);
        m.put("local_connections", localSockets ? "unix socket" : "tcp");
        m.put("shipper", shipperSettings);
        m.put("applier", applierSettings);
        m.put("servers", attached() ? "attached" : "embedded");
        m.put("fsync", attached() ? null : fsync ? "on" : "off");
        m.put("primary", Endpoint.masked(primaryUrl));
        m.put("replica", Endpoint.masked(replicaUrl));
        m.put("json", json);
        m.put("chart", chart == null ? null : chart.toString());
        return m;
    }
}
