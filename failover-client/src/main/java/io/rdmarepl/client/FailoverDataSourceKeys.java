package io.rdmarepl.client;

import static io.rdmarepl.client.FailoverDataSourceConfig.APPLICATION_NAME_DEFAULT;
import static io.rdmarepl.client.FailoverDataSourceConfig.CONNECTION_TIMEOUT_DEFAULT;
import static io.rdmarepl.client.FailoverDataSourceConfig.COORDINATOR_CONNECT_TIMEOUT_DEFAULT;
import static io.rdmarepl.client.FailoverDataSourceConfig.POLL_WAIT_DEFAULT;
import static io.rdmarepl.client.FailoverDataSourceConfig.POOL_SIZE_DEFAULT;
import static io.rdmarepl.client.FailoverDataSourceConfig.RETIRED_POOL_GRACE_DEFAULT;
import static io.rdmarepl.client.FailoverDataSourceConfig.STANDBY_CONNECTIONS_DEFAULT;
import static io.rdmarepl.client.FailoverDataSourceConfig.TOPOLOGY_MAX_AGE_DEFAULT;
import static io.rdmarepl.client.FailoverDataSourceConfig.TOPOLOGY_MAX_AGE_MIN;
import static io.rdmarepl.client.FailoverDataSourceConfig.TRANSACTION_ISOLATION_DEFAULT;
import static io.rdmarepl.config.ConfigKey.key;
import static io.rdmarepl.config.ConfigKey.secret;
import static io.rdmarepl.config.ValueTypes.integer;
import static io.rdmarepl.config.ValueTypes.milliseconds;
import static io.rdmarepl.config.ValueTypes.nonEmptyText;
import static io.rdmarepl.config.ValueTypes.oneOf;
import static io.rdmarepl.config.ValueTypes.text;

import io.rdmarepl.config.ConfigKey;
import io.rdmarepl.config.ConfigKeys;
import io.rdmarepl.config.ValueType;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Every setting of {@link FailoverDataSourceConfig.Builder}, named as the builder names it: type and rules, default,
 * description (docs/configuration/client.md's table is made from these, and checked against them by
 * FailoverDataSourceKeysTest). The rules between settings are the builder's.
 */
public final class FailoverDataSourceKeys {
    public static final ConfigKey<List<URI>> COORDINATOR_URLS = key("coordinatorUrls",
            ValueType.<List<URI>>of("http:// or https:// URLs", FailoverDataSourceKeys::coordinatorUrls)
                    .shownAs(urls -> urls.stream().map(URI::toString).collect(Collectors.joining(",")))
                    .where(urls -> !urls.isEmpty(), "none given, at least one is required (e.g. http://coord1:8080)"), "",
            "coordinators, tried in turn (coordinatorUrl(url) adds one)");
    public static final ConfigKey<String> USER = key("user", nonEmptyText(), "", "the database user");
    public static final ConfigKey<String> PASSWORD = secret("password", text(), "",
            "its password; none for trust or certificate authentication (masked when printed)");
    public static final ConfigKey<String> DATABASE_PROPERTIES = ConfigKey.prefix("databaseProperty.*",
            "databaseProperty(key, value): passed to the PostgreSQL JDBC driver as is (e.g. sslmode); a key holding 'password' is masked when printed");
    public static final ConfigKey<Integer> POOL_SIZE = key("poolSize", integer(1, 10_000), Integer.toString(POOL_SIZE_DEFAULT),
            "connections per primary (HikariCP maximumPoolSize and minimumIdle)");
    public static final ConfigKey<Integer> STANDBY_CONNECTIONS = key("standbyConnections", integer(0, 10_000),
            Integer.toString(STANDBY_CONNECTIONS_DEFAULT),
            "connections opened ahead to each standby, at most poolSize (default: the smaller of 2 and poolSize); the promoted standby's pool starts with them (0: none)");
    public static final ConfigKey<Duration> CONNECTION_TIMEOUT = key("connectionTimeout", positive(), ms(CONNECTION_TIMEOUT_DEFAULT),
            "how long getConnection waits for a primary to be known and reachable");
    public static final ConfigKey<String> APPLICATION_NAME = key("applicationName", nonEmptyText(), APPLICATION_NAME_DEFAULT,
            "application_name in pg_stat_activity");
    public static final ConfigKey<String> TRANSACTION_ISOLATION = key("transactionIsolation",
            oneOf("TRANSACTION_READ_UNCOMMITTED", "TRANSACTION_READ_COMMITTED", "TRANSACTION_REPEATABLE_READ", "TRANSACTION_SERIALIZABLE"),
            TRANSACTION_ISOLATION_DEFAULT,
            "every session's isolation level (JDBC name); set explicitly, because HikariCP's detection of the server's default, failing once on a pool's first connection, breaks every later connection of that pool");
    public static final ConfigKey<Duration> COORDINATOR_CONNECT_TIMEOUT = key("coordinatorConnectTimeout", positive(),
            ms(COORDINATOR_CONNECT_TIMEOUT_DEFAULT), "TCP connect timeout per coordinator, before the next one is tried");
    public static final ConfigKey<Duration> POLL_WAIT = key("pollWait", milliseconds()
                    .where(d -> d.compareTo(CoordinatorHttp.MIN_WAIT) >= 0 && d.compareTo(CoordinatorHttp.MAX_WAIT) <= 0,
                            "must be between " + CoordinatorHttp.MIN_WAIT.toMillis() + " and " + CoordinatorHttp.MAX_WAIT.toMillis()
                                    + " ms (" + CoordinatorHttp.MAX_WAIT.toMillis() + ": the coordinator's limit)")
                    .documentedAs(CoordinatorHttp.MIN_WAIT.toMillis() + ".." + CoordinatorHttp.MAX_WAIT.toMillis() + " ms"),
            ms(POLL_WAIT_DEFAULT), "how long a coordinator may hold a long poll");
    public static final ConfigKey<Duration> RETIRED_POOL_GRACE = key("retiredPoolGrace",
            milliseconds().where(d -> !d.isNegative(), "must not be negative").documentedAs("0.. ms"), ms(RETIRED_POOL_GRACE_DEFAULT),
            "connections still borrowed from a replaced primary are aborted after this");
    public static final ConfigKey<Duration> TOPOLOGY_MAX_AGE = key("topologyMaxAge", milliseconds()
                    .where(d -> d.isZero() || d.compareTo(TOPOLOGY_MAX_AGE_MIN) >= 0,
                            "must be 0 (no bound) or at least " + TOPOLOGY_MAX_AGE_MIN.toMillis() + " ms")
                    .documentedAs("0, or " + TOPOLOGY_MAX_AGE_MIN.toMillis() + ".. ms"),
            ms(TOPOLOGY_MAX_AGE_DEFAULT),
            "the longest the topology is used without a coordinator that holds the cluster's state confirming it; then getConnection() throws 08001 until one does (0: no bound). A coordinator answering from a state older than 2 s (it lost ZooKeeper) confirms nothing: the client asks the next one. Long polls are held at most a third of it");

    public static final ConfigKeys ALL = ConfigKeys.of("client", "docs/configuration/client.md", COORDINATOR_URLS, USER, PASSWORD,
            DATABASE_PROPERTIES, POOL_SIZE, STANDBY_CONNECTIONS, CONNECTION_TIMEOUT, APPLICATION_NAME, TRANSACTION_ISOLATION,
            COORDINATOR_CONNECT_TIMEOUT, POLL_WAIT, RETIRED_POOL_GRACE, TOPOLOGY_MAX_AGE);

    private FailoverDataSourceKeys() {
    }

    /**
     * @return {@code url} as a coordinator's address
     * @throws IllegalArgumentException saying what is wrong with it
     */
    static URI coordinatorUrl(String url) {
        final URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URL");
        }
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
            throw new IllegalArgumentException("must start with http:// or https://");
        } else if (uri.getHost() == null) {
            throw new IllegalArgumentException("has no host");
        } else if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("must not have a query or fragment");
        }
        return uri;
    }

    private static List<URI> coordinatorUrls(String text) {
        List<URI> urls = new ArrayList<>();
        for (String url : text.split(",")) {
            if (!url.isBlank()) {
                try {
                    urls.add(coordinatorUrl(url.trim()));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(url.trim() + " " + e.getMessage());
                }
            }
        }
        return List.copyOf(urls);
    }

    private static ValueType<Duration> positive() {
        return milliseconds().where(d -> !d.isNegative() && !d.isZero(), "must be positive").documentedAs("1.. ms");
    }

    private static String ms(Duration duration) {
        return duration.toMillis() + " ms";
    }
}
