package io.rdmarepl.coordinator.config;

import io.rdmarepl.config.ConfigProblems;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/** {@code coordinator.properties}, typed and validated; every key has a default and a line in docs/configuration.md ({@link #KEYS}). */
public record CoordinatorConfig(
        String clusterName,
        String coordinatorName,
        List<MemberConfig> members,
        String initialPrimary,
        String databaseUser,
        String databasePassword,
        String rolesAdminToken,
        Duration detectInterval,
        Duration detectHeartbeat,
        Duration detectProbeTimeout,
        int detectProbeFailures,
        boolean autoFailover,
        long maxLagBytes,
        String fenceCommand,
        Duration fenceCommandTimeout,
        Duration fenceLease,
        String stateStore,
        Path stateFile,
        String zookeeperConnect,
        InetSocketAddress adminAddress,
        String adminToken) {

    /** Key, default, description: docs/configuration.md's table is this list. */
    public static final List<String[]> KEYS = List.of(
            new String[] {"cluster.name", "main", "name of the cluster in the state store"},
            new String[] {"coordinator.name", "", "this coordinator's name in the ZooKeeper leader election; empty = the host name"},
            new String[] {"members", "", "comma-separated member names (PostgreSQL servers)"},
            new String[] {"member.<name>.jdbc.url", "", "where clients and probes reach the member"},
            new String[] {"member.<name>.applier.admin", "", "http://host:port of the applier that keeps the member a standby"},
            new String[] {"member.<name>.shipper.admin", "", "http://host:port of the shipper beside the member when it is primary"},
            new String[] {"initial.primary", "", "the primary when the state store is empty (first start)"},
            new String[] {"database.user", "postgres", "user for probes, fencing and promotion checks (superuser, or pg_signal_backend and ALTER SYSTEM rights)"},
            new String[] {"database.password", "", "its password (masked in every message)"},
            new String[] {"roles.admin.token", "", "bearer token of the shippers' and appliers' admin endpoints"},
            new String[] {"detect.interval.ms", "5", "how often the coordinator probes the primary and reads the standbys"},
            new String[] {"detect.heartbeat.ms", "20", "the primary is suspect when no standby received a heartbeat for this long..."},
            new String[] {"detect.probe.timeout.ms", "25", "...and its JDBC probe failed or did not answer within this"},
            new String[] {"detect.probe.failures", "2", "consecutive failed probes before the primary counts as failed (one once its shipper saw its postmaster exit)"},
            new String[] {"failover.auto", "true", "fail over on detection; false: only on `rdmarepl failover`"},
            new String[] {"max.lag.bytes", "16777216", "a standby further behind the last shipped frame is not a candidate"},
            new String[] {"fence.command", "", "run (sh -c) to fence an old primary that is unreachable or whose postmaster exited; $RDMAREPL_MEMBER names it"},
            new String[] {"fence.command.timeout.ms", "10000", "how long fence.command may take; failing or timing out stops the failover"},
            new String[] {"fence.lease.ms", "2000", "the shippers' fence.lease.ms (a shipper that reports a longer one is waited for longer): a fence neither SQL nor fence.command confirmed promotes only once the old primary's lease certainly ran out; at least detection time + 600 ms; 0 = the shippers run none: such a failover is refused"},
            new String[] {"state.store", "file", "file (one coordinator) or zookeeper (several; leader election)"},
            new String[] {"state.file", "rdmarepl-state.json", "the state file (state.store=file); written atomically and fsynced"},
            new String[] {"zookeeper.connect", "", "ZooKeeper connect string (state.store=zookeeper)"},
            new String[] {"admin.address", "127.0.0.1:7490", "admin HTTP endpoint (/health, /status, /topology, /history, /metrics, control)"},
            new String[] {"admin.token", "", "bearer token for control actions (failover, fence, promote...); empty disables them"});

    private static final Set<String> SECRETS = Set.of("database.password", "roles.admin.token", "admin.token");

    /**
     * What one lease renewal may take ({@code POST /lease} every 100 ms, an answer within 500 ms): a lease must outlast
     * one renewal that went astray, on top of detection, or a blip fences a healthy primary.
     */
    public static final long RENEWAL_ALLOWANCE_MS = 600;

    /**
     * @throws IllegalArgumentException listing every bad key, its value (secrets masked) and the rule
     */
    public static CoordinatorConfig load(Properties properties) {
        ConfigProblems p = new ConfigProblems(properties, SECRETS, "coordinator");
        String cluster = p.string("cluster.name", "main");
        if (!cluster.matches("[A-Za-z0-9_.-]{1,64}")) {
            p.problem("cluster.name", cluster, "must be 1-64 letters, digits, '_', '.' or '-'");
        }
        String name = p.string("coordinator.name", "");
        if (name.isEmpty()) {
            name = hostName();
        }
        List<MemberConfig> members = new ArrayList<>();
        List<String> names = list(p.string("members", ""));
        if (names.isEmpty()) {
            p.problem("members", "", "name at least two members (a primary and a standby)");
        }
        for (String member : names) {
            String urlKey = "member." + member + ".jdbc.url";
            String url = p.string(urlKey, "");
            if (!url.startsWith("jdbc:postgresql://")) {
                p.problem(urlKey, url, "must be a jdbc:postgresql:// URL");
            }
            members.add(new MemberConfig(member, url, uri(p, "member." + member + ".applier.admin"),
                    uri(p, "member." + member + ".shipper.admin")));
        }
        String initial = p.string("initial.primary", "");
        if (!initial.isEmpty() && !names.contains(initial)) {
            p.problem("initial.primary", initial, "must be one of members " + names);
        }
        String user = p.string("database.user", "postgres");
        String password = p.string("database.password", "");
        String rolesToken = p.string("roles.admin.token", "");
        Duration interval = Duration.ofMillis(p.longValue("detect.interval.ms", 5, 1, 10_000));
        Duration heartbeat = Duration.ofMillis(p.longValue("detect.heartbeat.ms", 20, 1, 600_000));
        Duration probeTimeout = Duration.ofMillis(p.longValue("detect.probe.timeout.ms", 25, 1, 600_000));
        int probeFailures = p.integer("detect.probe.failures", 2, 1, 1000);
        boolean auto = p.bool("failover.auto", true);
        long maxLag = p.longValue("max.lag.bytes", 16L << 20, 0, Long.MAX_VALUE);
        String fence = p.string("fence.command", "");
        Duration fenceTimeout = Duration.ofMillis(p.longValue("fence.command.timeout.ms", 10_000, 1, 600_000));
        long lease = p.longValue("fence.lease.ms", 2000, 0, 3_600_000);
        long detectionMs = Math.max(heartbeat.toMillis(), probeFailures * (probeTimeout.toMillis() + interval.toMillis()));
        if (lease > 0 && lease < detectionMs + RENEWAL_ALLOWANCE_MS) {
            p.problem("fence.lease.ms", Long.toString(lease), "must be 0 (the shippers run no lease) or at least "
                    + (detectionMs + RENEWAL_ALLOWANCE_MS) + " ms: the time detection may take (the longer of detect.heartbeat.ms "
                    + heartbeat.toMillis() + " and detect.probe.failures " + probeFailures + " x (detect.probe.timeout.ms "
                    + probeTimeout.toMillis() + " + detect.interval.ms " + interval.toMillis() + ") = " + detectionMs
                    + " ms) plus one lease renewal (" + RENEWAL_ALLOWANCE_MS + " ms); a shorter lease fences a healthy primary "
                    + "on a blip this coordinator would not even fail over for");
        }
        String store = p.oneOf("state.store", "file", Set.of("file", "zookeeper"));
        Path file = Path.of(p.string("state.file", "rdmarepl-state.json"));
        String zookeeper = p.string("zookeeper.connect", "");
        if (store.equals("zookeeper") && zookeeper.isEmpty()) {
            p.problem("zookeeper.connect", "", "required with state.store=zookeeper (host:port[,host:port...])");
        }
        InetSocketAddress admin = address(p, p.string("admin.address", "127.0.0.1:7490"));
        String token = p.string("admin.token", "");
        p.rejectUnknown(Set.of());
        p.throwIfAny("coordinator configuration");
        return new CoordinatorConfig(cluster, name, List.copyOf(members), initial, user, password, rolesToken, interval,
                heartbeat, probeTimeout, probeFailures, auto, maxLag, fence, fenceTimeout, Duration.ofMillis(lease), store, file, zookeeper,
                admin, token);
    }

    public Optional<MemberConfig> member(String name) {
        return members.stream().filter(m -> m.name().equals(name)).findFirst();
    }

    private static Optional<URI> uri(ConfigProblems p, String key) {
        String value = p.string(key, "");
        if (value.isEmpty()) {
            return Optional.empty();
        }
        try {
            URI uri = URI.create(value);
            if (!"http".equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 0) {
                p.problem(key, value, "must be http://host:port");
                return Optional.empty();
            }
            return Optional.of(uri);
        } catch (IllegalArgumentException e) {
            p.problem(key, value, "must be http://host:port");
            return Optional.empty();
        }
    }

    private static InetSocketAddress address(ConfigProblems p, String value) {
        int colon = value.lastIndexOf(':');
        try {
            int port = Integer.parseInt(value.substring(colon + 1));
            if (colon <= 0 || port < 0 || port > 65535) {
                throw new NumberFormatException();
            }
            return new InetSocketAddress(value.substring(0, colon), port);
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            p.problem("admin.address", value, "must be host:port");
            return new InetSocketAddress("127.0.0.1", 7490);
        }
    }

    private static List<String> list(String value) {
        return value.isEmpty() ? List.of() : Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            return "coordinator";
        }
    }

    /** One line for the log: everything but secrets. */
    public String describe() {
        return "cluster=" + clusterName + " members=" + members.stream().map(MemberConfig::name).toList() + " store=" + stateStore
                + (stateStore.equals("file") ? " " + stateFile : " " + zookeeperConnect) + " detect=" + detectHeartbeat.toMillis()
                + "ms heartbeat + " + detectProbeFailures + " failed probes (" + detectProbeTimeout.toMillis() + "ms) lease="
                + (fenceLease.isZero() ? "none" : fenceLease.toMillis() + "ms") + " fence.command=" + (fenceCommand.isEmpty() ? "none" : "set")
                + " auto="
                + autoFailover + " admin=" + adminAddress;
    }
}
