package io.rdmarepl.coordinator.config;

import static io.rdmarepl.config.ConfigKey.key;
import static io.rdmarepl.config.ConfigKey.secret;
import static io.rdmarepl.config.ValueTypes.bool;
import static io.rdmarepl.config.ValueTypes.hostPort;
import static io.rdmarepl.config.ValueTypes.integer;
import static io.rdmarepl.config.ValueTypes.list;
import static io.rdmarepl.config.ValueTypes.oneOf;
import static io.rdmarepl.config.ValueTypes.text;
import static io.rdmarepl.config.ValueTypes.wholeNumber;

import io.rdmarepl.config.ConfigKey;
import io.rdmarepl.config.ConfigKeys;
import io.rdmarepl.config.ValueType;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * Every key {@link CoordinatorConfig} reads: type and rules, default, description (docs/configuration/coordinator.md's
 * table is made from these, and checked against them by CoordinatorKeysTest). The rules between keys are
 * {@link CoordinatorConfig}'s.
 */
public final class CoordinatorKeys {
    /** A role's admin endpoint, or none. */
    private static final ValueType<Optional<URI>> ADMIN_ENDPOINT = ValueType.<Optional<URI>>of("http://host:port, or empty", text -> {
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try {
            URI uri = URI.create(text);
            if ("http".equals(uri.getScheme()) && uri.getHost() != null && uri.getPort() >= 0) {
                return Optional.of(uri);
            }
        } catch (IllegalArgumentException e) {
            // the rule below says what is wrong
        }
        throw new IllegalArgumentException("must be http://host:port");
    }).shownAs(uri -> uri.map(URI::toString).orElse(""));

    public static final ConfigKey<String> CLUSTER_NAME = key("cluster.name",
            text().where(s -> s.matches("[A-Za-z0-9_.-]{1,64}"), "must be 1-64 letters, digits, '_', '.' or '-'")
                    .documentedAs("1-64 of A-Z, a-z, 0-9, _ . -"), "main",
            "name of the cluster in the state store");
    public static final ConfigKey<String> COORDINATOR_NAME = key("coordinator.name", text(), "",
            "this coordinator's name in the ZooKeeper leader election; empty = the host name");
    public static final ConfigKey<List<String>> MEMBERS = key("members",
            list().where(names -> !names.isEmpty(), "name at least two members (a primary and a standby)"), "",
            "comma-separated member names (PostgreSQL servers)");
    public static final ConfigKey<String> MEMBER_JDBC_URL = key("member.<name>.jdbc.url",
            text().where(url -> url.startsWith("jdbc:postgresql://"), "must be a jdbc:postgresql:// URL")
                    .documentedAs("jdbc:postgresql://..."), "",
            "where clients and probes reach the member");
    public static final ConfigKey<Optional<URI>> MEMBER_APPLIER_ADMIN = key("member.<name>.applier.admin", ADMIN_ENDPOINT, "",
            "http://host:port of the applier that keeps the member a standby");
    public static final ConfigKey<Optional<URI>> MEMBER_SHIPPER_ADMIN = key("member.<name>.shipper.admin", ADMIN_ENDPOINT, "",
            "http://host:port of the shipper beside the member when it is primary");
    public static final ConfigKey<String> INITIAL_PRIMARY = key("initial.primary", text(), "",
            "the primary when the state store is empty (first start)");
    public static final ConfigKey<String> DATABASE_USER = key("database.user", text(), "postgres",
            "user for probes, fencing and promotion checks (superuser, or pg_signal_backend and ALTER SYSTEM rights)");
    public static final ConfigKey<String> DATABASE_PASSWORD = secret("database.password", text(), "",
            "its password (masked in every message)");
    public static final ConfigKey<String> ROLES_ADMIN_TOKEN = secret("roles.admin.token", text(), "",
            "bearer token of the shippers' and appliers' admin endpoints");
    public static final ConfigKey<Long> DETECT_INTERVAL_MS = key("detect.interval.ms", wholeNumber(1, 10_000), "5",
            "how often the coordinator probes the primary (each standby's applier answers a held watch the moment its ring falls silent)");
    public static final ConfigKey<Long> DETECT_HEARTBEAT_MS = key("detect.heartbeat.ms", wholeNumber(1, 600_000), "20",
            "the primary is suspect when no standby received a heartbeat for this long...");
    public static final ConfigKey<Long> DETECT_PROBE_TIMEOUT_MS = key("detect.probe.timeout.ms", wholeNumber(1, 600_000), "25",
            "...and its JDBC probe failed or did not answer within this");
    public static final ConfigKey<Integer> DETECT_PROBE_FAILURES = key("detect.probe.failures", integer(1, 1000), "2",
            "consecutive failed probes before the primary counts as failed (one once its shipper saw its postmaster exit)");
    public static final ConfigKey<Boolean> FAILOVER_AUTO = key("failover.auto", bool(), "true",
            "fail over on detection; false: only on `rdmarepl failover`");
    public static final ConfigKey<Integer> FAILOVER_REHEARSALS = key("failover.rehearsals", integer(0, 20), "3",
            "failovers played through in memory (no member, role or store touched) before the coordinator starts, then 300 requests of theirs to an admin endpoint of its own on a loopback port, so that the first real one runs warm code; 0 = neither");
    public static final ConfigKey<Long> MAX_LAG_BYTES = key("max.lag.bytes", wholeNumber(0, Long.MAX_VALUE), "16777216",
            "a standby further behind the last shipped frame is not a candidate");
    public static final ConfigKey<String> FENCE_COMMAND = key("fence.command", text(), "",
            "run (sh -c) to fence an old primary that is unreachable or whose postmaster exited; $RDMAREPL_MEMBER names it");
    public static final ConfigKey<Long> FENCE_COMMAND_TIMEOUT_MS = key("fence.command.timeout.ms", wholeNumber(1, 600_000), "10000",
            "how long fence.command may take; failing or timing out stops the failover");
    public static final ConfigKey<Long> FENCE_LEASE_MS = key("fence.lease.ms", wholeNumber(0, 3_600_000), "2000",
            "the shippers' fence.lease.ms (a shipper that reports a longer one is waited for longer): a fence neither SQL nor fence.command confirmed promotes only once the old primary's lease certainly ran out; at least detection time + 600 ms; 0 = the shippers run none: such a failover is refused");
    public static final ConfigKey<String> STATE_STORE = key("state.store", oneOf("file", "zookeeper"), "file",
            "file (one coordinator) or zookeeper (several; leader election)");
    public static final ConfigKey<String> STATE_FILE = key("state.file", text(), "rdmarepl-state.json",
            "the state file (state.store=file); written atomically and fsynced");
    public static final ConfigKey<String> ZOOKEEPER_CONNECT = key("zookeeper.connect", text(), "",
            "ZooKeeper connect string (state.store=zookeeper)");
    public static final ConfigKey<InetSocketAddress> ADMIN_ADDRESS = key("admin.address", hostPort(), "127.0.0.1:7490",
            "admin HTTP endpoint (/health, /status, /topology, /history, /metrics, control)");
    public static final ConfigKey<String> ADMIN_TOKEN = secret("admin.token", text(), "",
            "bearer token for control actions (failover, fence, promote...); empty disables them");

    public static final ConfigKeys ALL = ConfigKeys.of("coordinator", "docs/configuration/coordinator.md",
            CLUSTER_NAME, COORDINATOR_NAME, MEMBERS, MEMBER_JDBC_URL, MEMBER_APPLIER_ADMIN, MEMBER_SHIPPER_ADMIN, INITIAL_PRIMARY,
            DATABASE_USER, DATABASE_PASSWORD, ROLES_ADMIN_TOKEN, DETECT_INTERVAL_MS, DETECT_HEARTBEAT_MS, DETECT_PROBE_TIMEOUT_MS,
            DETECT_PROBE_FAILURES, FAILOVER_AUTO, FAILOVER_REHEARSALS, MAX_LAG_BYTES, FENCE_COMMAND, FENCE_COMMAND_TIMEOUT_MS, FENCE_LEASE_MS,
            STATE_STORE, STATE_FILE, ZOOKEEPER_CONNECT, ADMIN_ADDRESS, ADMIN_TOKEN);

    private CoordinatorKeys() {
    }
}
