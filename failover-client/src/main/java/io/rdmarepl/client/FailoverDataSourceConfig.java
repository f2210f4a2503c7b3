package io.rdmarepl.client;

import io.rdmarepl.config.ConfigException;
import io.rdmarepl.config.ConfigReader;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;

/**
 * Settings of a {@link FailoverDataSource}, each next to its default; {@link FailoverDataSourceKeys} describes each
 * (type, rules, default, meaning). {@link Builder#build()} checks them all against those rules and reports every
 * problem in one error, in the format every rdmarepl configuration uses; nothing is corrected silently. Immutable once
 * built.
 */
public final class FailoverDataSourceConfig {
    /** Connections kept per primary (HikariCP maximumPoolSize and minimumIdle). */
    public static final int POOL_SIZE_DEFAULT = 10;
    /**
     * Connections kept open to each standby, ready for the moment the coordinator promotes it (at most the pool size;
     * 0: none, a new primary's pool starts empty).
     */
    public static final int STANDBY_CONNECTIONS_DEFAULT = 2;
    /** How long getConnection waits for a primary to be known and reachable. */
    public static final Duration CONNECTION_TIMEOUT_DEFAULT = Duration.ofSeconds(10);
    /** Sent to PostgreSQL as application_name, shown in pg_stat_activity. */
    public static final String APPLICATION_NAME_DEFAULT = "rdmarepl-client";
    /**
     * Every session's isolation level, PostgreSQL's own default. Said explicitly because HikariCP, left to detect
     * the server's default, keeps a failed detection on a pool's first connection for good and then fails every
     * later connection ("Transaction isolation level -1 not supported").
     */
    public static final String TRANSACTION_ISOLATION_DEFAULT = "TRANSACTION_READ_COMMITTED";
    /** How long to wait for a TCP connection to a coordinator before trying the next. */
    public static final Duration COORDINATOR_CONNECT_TIMEOUT_DEFAULT = Duration.ofMillis(500);
    /** How long a coordinator may hold a long poll (wait_ms); the coordinator caps it at 30 s. */
    public static final Duration POLL_WAIT_DEFAULT = Duration.ofSeconds(30);
    /** How long connections borrowed from a replaced primary may finish their work before they are aborted. */
    public static final Duration RETIRED_POOL_GRACE_DEFAULT = Duration.ofSeconds(2);
    /**
     * The longest a topology is used without a coordinator that holds the cluster's state confirming it; then
     * getConnection fails (08001) until one does. Zero: no bound, the last topology is kept forever.
     */
    public static final Duration TOPOLOGY_MAX_AGE_DEFAULT = Duration.ofSeconds(30);
    /** The shortest bound: long polls are held a third of it, and never less than 100 ms. */
    static final Duration TOPOLOGY_MAX_AGE_MIN = Duration.ofSeconds(1);

    private final List<URI> coordinatorUrls;
    private final String user;
    private final String password;
    private final Properties databaseProperties;
    private final int poolSize;
    private final int standbyConnections;
    private final Duration connectionTimeout;
    private final String applicationName;
    private final String transactionIsolation;
    private final Duration coordinatorConnectTimeout;
    private final Duration pollWait;
    private final Duration retiredPoolGrace;
    private final Duration topologyMaxAge;

    private FailoverDataSourceConfig(final Builder builder, final List<URI> coordinatorUrls, final String transactionIsolation) {
        this.coordinatorUrls = List.copyOf(coordinatorUrls);
        this.user = builder.user;
        this.password = builder.password;
        this.databaseProperties = copy(builder.databaseProperties);
        this.poolSize = builder.poolSize;
        this.standbyConnections = builder.standbyConnections == null
            ? Math.min(STANDBY_CONNECTIONS_DEFAULT, builder.poolSize) : builder.standbyConnections;
        this.connectionTimeout = builder.connectionTimeout;
        this.applicationName = builder.applicationName;
        this.transactionIsolation = transactionIsolation;
        this.coordinatorConnectTimeout = builder.coordinatorConnectTimeout;
        this.pollWait = builder.pollWait;
        this.retiredPoolGrace = builder.retiredPoolGrace;
        this.topologyMaxAge = builder.topologyMaxAge;
    }

    public static Builder builder() {
        return new Builder();
    }

    public List<URI> coordinatorUrls() {
        return coordinatorUrls;
    }

    public String user() {
        return user;
    }

    /**
     * @return the password, or null to connect without one.
     */
    public String password() {
        return password;
    }

    /**
     * @return a copy of the properties passed to the PostgreSQL JDBC driver as they are (e.g. sslmode).
     */
    public Properties databaseProperties() {
        return copy(databaseProperties);
    }

    public int poolSize() {
        return poolSize;
    }

    /**
     * @return connections kept open to each standby, taken over as the new primary's pool when it is promoted
     */
    public int standbyConnections() {
        return standbyConnections;
    }

    public Duration connectionTimeout() {
        return connectionTimeout;
    }

    public String applicationName() {
        return applicationName;
    }

    /**
     * @return the JDBC name of every session's isolation level, e.g. TRANSACTION_READ_COMMITTED
     */
    public String transactionIsolation() {
        return transactionIsolation;
    }

    public Duration coordinatorConnectTimeout() {
        return coordinatorConnectTimeout;
    }

    public Duration pollWait() {
        return pollWait;
    }

    /**
     * @return how long a topology is used without a fresh confirmation from a coordinator; zero: no bound
     */
    public Duration topologyMaxAge() {
        return topologyMaxAge;
    }

    public Duration retiredPoolGrace() {
        return retiredPoolGrace;
    }

    /**
     * The resolved settings, password masked, for the one log line at start.
     */
    @Override
    public String toString() {
        return "coordinators=" + coordinatorUrls +
            ", user=" + user +
            ", password=" + (password == null ? "(none)" : "****") +
            ", databaseProperties=" + masked(databaseProperties) +
            ", poolSize=" + poolSize +
            ", standbyConnections=" + standbyConnections +
            ", connectionTimeoutMs=" + connectionTimeout.toMillis() +
            ", applicationName=" + applicationName +
            ", transactionIsolation=" + transactionIsolation +
            ", coordinatorConnectTimeoutMs=" + coordinatorConnectTimeout.toMillis() +
            ", pollWaitMs=" + pollWait.toMillis() +
            ", retiredPoolGraceMs=" + retiredPoolGrace.toMillis() +
            ", topologyMaxAgeMs=" + topologyMaxAge.toMillis();
    }

    private static String masked(final Properties properties) {
        final List<String> entries = new ArrayList<>();
        for (final String key : properties.stringPropertyNames()) {
            final boolean secret = key.toLowerCase(Locale.ROOT).contains("password");
            entries.add(key + "=" + (secret ? "****" : properties.getProperty(key)));
        }
        return entries.toString();
    }

    private static Properties copy(final Properties properties) {
        final Properties copy = new Properties();
        copy.putAll(properties);
        return copy;
    }

    public static final class Builder {
        private final List<String> coordinatorUrls = new ArrayList<>();
        private String user;
        private String password;
        private final Properties databaseProperties = new Properties();
        private int poolSize = POOL_SIZE_DEFAULT;
        private Integer standbyConnections;
        private Duration connectionTimeout = CONNECTION_TIMEOUT_DEFAULT;
        private String applicationName = APPLICATION_NAME_DEFAULT;
        private String transactionIsolation = TRANSACTION_ISOLATION_DEFAULT;
        private Duration coordinatorConnectTimeout = COORDINATOR_CONNECT_TIMEOUT_DEFAULT;
        private Duration pollWait = POLL_WAIT_DEFAULT;
        private Duration topologyMaxAge = TOPOLOGY_MAX_AGE_DEFAULT;
        private Duration retiredPoolGrace = RETIRED_POOL_GRACE_DEFAULT;

        private Builder() {
        }

        /**
         * Add a coordinator, e.g. {@code http://coord1:8080}; several are tried in turn. At least one is required.
         */
        public Builder coordinatorUrl(final String url) {
            coordinatorUrls.add(url);
            return this;
        }

        public Builder coordinatorUrls(final List<String> urls) {
            coordinatorUrls.addAll(urls);
            return this;
        }

        /** Required: the database user. */
        public Builder user(final String user) {
            this.user = user;
            return this;
        }

        /** Default none (e.g. trust or certificate authentication). */
        public Builder password(final String password) {
            this.password = password;
            return this;
        }

        /** Passed to the PostgreSQL JDBC driver as is, e.g. {@code sslmode=verify-full}. */
        public Builder databaseProperty(final String key, final String value) {
            databaseProperties.setProperty(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /** Default {@value FailoverDataSourceConfig#POOL_SIZE_DEFAULT}. */
        public Builder poolSize(final int poolSize) {
            this.poolSize = poolSize;
            return this;
        }

        /**
         * Connections kept open to each standby (default {@value #STANDBY_CONNECTIONS_DEFAULT}, at most the pool size):
         * a promoted standby's pool starts with them instead of empty.
         */
        public Builder standbyConnections(final int standbyConnections) {
            this.standbyConnections = standbyConnections;
            return this;
        }

        /** Default 10 s: how long getConnection waits for a primary to be known and reachable. */
        public Builder connectionTimeout(final Duration connectionTimeout) {
            this.connectionTimeout = connectionTimeout;
            return this;
        }

        /** Default {@value FailoverDataSourceConfig#APPLICATION_NAME_DEFAULT}. */
        public Builder applicationName(final String applicationName) {
            this.applicationName = applicationName;
            return this;
        }

        /**
         * Default {@value FailoverDataSourceConfig#TRANSACTION_ISOLATION_DEFAULT}: every session's isolation level,
         * by its JDBC name (TRANSACTION_READ_COMMITTED, TRANSACTION_REPEATABLE_READ, TRANSACTION_SERIALIZABLE).
         */
        public Builder transactionIsolation(final String transactionIsolation) {
            this.transactionIsolation = transactionIsolation;
            return this;
        }

        /** Default 500 ms. */
        public Builder coordinatorConnectTimeout(final Duration coordinatorConnectTimeout) {
            this.coordinatorConnectTimeout = coordinatorConnectTimeout;
            return this;
        }

        /** Default 30 s; 100 ms to 30 s. */
        public Builder pollWait(final Duration pollWait) {
            this.pollWait = pollWait;
            return this;
        }

        /**
         * Default 30 s; zero for no bound. Past it without a coordinator that holds the cluster's state confirming
         * the topology (none answers, or those that answer lost their store), getConnection fails: the primary it
         * names may have been replaced meanwhile. Long polls are then held at most a third of it.
         */
        public Builder topologyMaxAge(final Duration topologyMaxAge) {
            this.topologyMaxAge = topologyMaxAge;
            return this;
        }

        /** Default 2 s. */
        public Builder retiredPoolGrace(final Duration retiredPoolGrace) {
            this.retiredPoolGrace = retiredPoolGrace;
            return this;
        }

        /**
         * @throws ConfigException listing every invalid setting: name, value (secrets masked), rule
         */
        public FailoverDataSourceConfig build() {
            final ConfigReader settings = ConfigReader.forSettings("failover data source settings", FailoverDataSourceKeys.ALL);
            final List<URI> uris = new ArrayList<>();
            if (coordinatorUrls.isEmpty()) {
                settings.check(FailoverDataSourceKeys.COORDINATOR_URLS, List.of());
            }
            for (final String url : coordinatorUrls) {
                try {
                    uris.add(FailoverDataSourceKeys.coordinatorUrl(Objects.requireNonNull(url, "url")));
                } catch (final IllegalArgumentException | NullPointerException ex) {
                    settings.problem(FailoverDataSourceKeys.COORDINATOR_URLS, String.valueOf(url),
                        ex instanceof NullPointerException ? "not a URL" : ex.getMessage());
                }
            }
            settings.check(FailoverDataSourceKeys.USER, user == null ? null : user.strip());
            settings.check(FailoverDataSourceKeys.PASSWORD, password);
            settings.check(FailoverDataSourceKeys.POOL_SIZE, poolSize);
            if (standbyConnections != null && (standbyConnections < 0 || standbyConnections > poolSize)) {
                settings.problem(FailoverDataSourceKeys.STANDBY_CONNECTIONS, standbyConnections.toString(),
                    "must be between 0 and poolSize (" + poolSize + ")");
            }
            settings.check(FailoverDataSourceKeys.CONNECTION_TIMEOUT, connectionTimeout);
            settings.check(FailoverDataSourceKeys.COORDINATOR_CONNECT_TIMEOUT, coordinatorConnectTimeout);
            final String isolation = settings.parse(FailoverDataSourceKeys.TRANSACTION_ISOLATION, transactionIsolation);
            settings.check(FailoverDataSourceKeys.APPLICATION_NAME, applicationName == null ? null : applicationName.strip());
            settings.check(FailoverDataSourceKeys.POLL_WAIT, pollWait);
            settings.check(FailoverDataSourceKeys.RETIRED_POOL_GRACE, retiredPoolGrace);
            settings.check(FailoverDataSourceKeys.TOPOLOGY_MAX_AGE, topologyMaxAge);
            settings.throwIfInvalid();
            return new FailoverDataSourceConfig(this, uris, isolation);
        }
    }
}
