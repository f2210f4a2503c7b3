package io.rdmarepl.coordinator.config;

import static io.rdmarepl.coordinator.config.CoordinatorKeys.*;

import io.rdmarepl.config.ConfigException;
import io.rdmarepl.config.ConfigReader;
import io.rdmarepl.config.ConfigSource;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * {@code coordinator.properties}, typed and validated; every key has a type, a default and a description in
 * {@link CoordinatorKeys}, and a row in docs/configuration/coordinator.md.
 */
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
        String adminToken,
        int failoverRehearsals) {

    /**
     * What one lease renewal may take ({@code POST /lease} every 100 ms, an answer within 500 ms): a lease must outlast
     * one renewal that went astray, on top of detection, or a blip fences a healthy primary.
     */
    public static final long RENEWAL_ALLOWANCE_MS = 600;

    /**
     * Reads a properties file (UTF-8); problems are reported under its name.
     *
     * @throws IllegalArgumentException naming the file when it cannot be read
     * @throws ConfigException listing every bad or unknown key, its value (secrets masked) and the rule
     */
    public static CoordinatorConfig load(Path file) {
        return load(ConfigSource.read(file));
    }

    /** @throws ConfigException listing every bad or unknown key, its value (secrets masked) and the rule */
    public static CoordinatorConfig load(Properties properties) {
        return load(ConfigSource.of("coordinator configuration", properties));
    }

    /** @throws ConfigException listing every bad or unknown key, its value (secrets masked) and the rule */
    public static CoordinatorConfig load(ConfigSource source) {
        ConfigReader r = new ConfigReader(source, ALL);
        String cluster = r.get(CLUSTER_NAME);
        String name = r.get(COORDINATOR_NAME);
        if (name.isEmpty()) {
            name = hostName();
        }
        List<MemberConfig> members = new ArrayList<>();
        List<String> names = r.get(MEMBERS);
        names = names == null ? List.of() : names;
        for (String member : names) {
            members.add(new MemberConfig(member, r.get(MEMBER_JDBC_URL.named(member)), r.get(MEMBER_APPLIER_ADMIN.named(member)),
                    r.get(MEMBER_SHIPPER_ADMIN.named(member))));
        }
        String initial = r.get(INITIAL_PRIMARY);
        if (!initial.isEmpty() && !names.contains(initial)) {
            r.problem(INITIAL_PRIMARY, initial, "must be one of members " + names);
        }
        String user = r.get(DATABASE_USER);
        String password = r.get(DATABASE_PASSWORD);
        String rolesToken = r.get(ROLES_ADMIN_TOKEN);
        Duration interval = Duration.ofMillis(r.get(DETECT_INTERVAL_MS));
        Duration heartbeat = Duration.ofMillis(r.get(DETECT_HEARTBEAT_MS));
        Duration probeTimeout = Duration.ofMillis(r.get(DETECT_PROBE_TIMEOUT_MS));
        int probeFailures = r.get(DETECT_PROBE_FAILURES);
        boolean auto = r.get(FAILOVER_AUTO);
        long maxLag = r.get(MAX_LAG_BYTES);
        String fence = r.get(FENCE_COMMAND);
        Duration fenceTimeout = Duration.ofMillis(r.get(FENCE_COMMAND_TIMEOUT_MS));
        long lease = r.get(FENCE_LEASE_MS);
        long detectionMs = Math.max(heartbeat.toMillis(), probeFailures * (probeTimeout.toMillis() + interval.toMillis()));
        if (lease > 0 && lease < detectionMs + RENEWAL_ALLOWANCE_MS) {
            r.problem(FENCE_LEASE_MS, Long.toString(lease), "must be 0 (the shippers run no lease) or at least "
                    + (detectionMs + RENEWAL_ALLOWANCE_MS) + " ms: the time detection may take (the longer of detect.heartbeat.ms "
                    + heartbeat.toMillis() + " and detect.probe.failures " + probeFailures + " x (detect.probe.timeout.ms "
                    + probeTimeout.toMillis() + " + detect.interval.ms " + interval.toMillis() + ") = " + detectionMs
                    + " ms) plus one lease renewal (" + RENEWAL_ALLOWANCE_MS + " ms); a shorter lease fences a healthy primary "
                    + "on a blip this coordinator would not even fail over for");
        }
        String store = r.get(STATE_STORE);
        Path file = Path.of(r.get(STATE_FILE));
        String zookeeper = r.get(ZOOKEEPER_CONNECT);
        if (store.equals("zookeeper") && zookeeper.isEmpty()) {
            r.problem(ZOOKEEPER_CONNECT, "", "required with state.store=zookeeper (host:port[,host:port...])");
        }
        InetSocketAddress admin = r.get(ADMIN_ADDRESS);
        String token = r.get(ADMIN_TOKEN);
        int rehearsals = r.get(FAILOVER_REHEARSALS);
        r.rejectUnknownKeys();
        r.throwIfInvalid();
        return new CoordinatorConfig(cluster, name, List.copyOf(members), initial, user, password, rolesToken, interval,
                heartbeat, probeTimeout, probeFailures, auto, maxLag, fence, fenceTimeout, Duration.ofMillis(lease), store, file, zookeeper,
                admin, token, rehearsals);
    }

    public Optional<MemberConfig> member(String name) {
        return members.stream().filter(m -> m.name().equals(name)).findFirst();
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
