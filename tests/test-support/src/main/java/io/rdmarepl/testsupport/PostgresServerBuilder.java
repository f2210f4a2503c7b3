package io.rdmarepl.testsupport;

import io.rdmarepl.testsupport.net.NetHost;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Options of one {@link PostgresServer}; {@link #start()} starts it.
 * <pre>
 * PostgresServer server = PostgresServer.builder("primary").durability(Durability.DURABLE)
 *     .setting("max_connections", "50").start();
 * </pre>
 */
public final class PostgresServerBuilder {
    private final String name;
    private Durability durability = Durability.FAST;
    private Path baseDirectory = PostgresServer.defaultBaseDirectory();
    private int port;
    private Duration startupTimeout = Duration.ofSeconds(15);
    private NetHost netHost;
    private boolean unixSocket;
    private final Map<String, String> extraSettings = new LinkedHashMap<>();

    PostgresServerBuilder(final String name) {
        if (name == null || !name.matches("[a-z][a-z0-9_]{0,30}")) {
            throw new IllegalArgumentException(
                "server name must match [a-z][a-z0-9_]{0,30} (it names a directory): " + name);
        }
        this.name = name;
    }

    public PostgresServerBuilder durability(final Durability durability) {
        this.durability = Objects.requireNonNull(durability, "durability");
        return this;
    }

    /**
     * Where {@code <name>-<uuid>} directories and the extracted binaries go; default
     * {@link PostgresServer#defaultBaseDirectory()}.
     */
    public PostgresServerBuilder baseDirectory(final Path baseDirectory) {
        this.baseDirectory = Objects.requireNonNull(baseDirectory, "baseDirectory");
        return this;
    }

    /**
     * A fixed port; default 0 picks a free one.
     */
    public PostgresServerBuilder port(final int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be in [0, 65535]: " + port);
        }
        this.port = port;
        return this;
    }

    /**
     * How long to wait for the server to accept connections, default 15 s. zonky ignores pg_ctl's exit status,
     * so a server that fails to start (a bad setting, say) is reported only after this timeout.
     */
    public PostgresServerBuilder startupTimeout(final Duration startupTimeout) {
        if (startupTimeout.isNegative() || startupTimeout.isZero()) {
            throw new IllegalArgumentException("startupTimeout must be positive: " + startupTimeout);
        }
        this.startupTimeout = startupTimeout;
        return this;
    }

    /**
     * Any other server setting, passed as {@code -c key=value}; it wins over the defaults, durability included.
     */
    public PostgresServerBuilder setting(final String key, final String value) {
        extraSettings.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
        return this;
    }

    /**
     * Run the server on {@code host} of a {@link io.rdmarepl.testsupport.net.Network}: in its namespace, listening on
     * its loopback and its address (default: this JVM's namespace, 127.0.0.1 only).
     */
    public PostgresServerBuilder on(final NetHost host) {
        this.netHost = Objects.requireNonNull(host, "host");
        return this;
    }

    /**
     * Listen on a Unix-domain socket too, in a directory of its own ({@link PostgresServer#socketDirectory()}), for
     * clients on this host that reach it as a sidecar does; default TCP only.
     */
    public PostgresServerBuilder unixSocket() {
        this.unixSocket = true;
        return this;
    }

    public PostgresServer start() {
        return PostgresServer.start(this);
    }

    String name() {
        return name;
    }

    Durability durability() {
        return durability;
    }

    Path baseDirectory() {
        return baseDirectory;
    }

    int port() {
        return port;
    }

    NetHost netHost() {
        return netHost;
    }

    boolean hasUnixSocket() {
        return unixSocket;
    }

    Duration startupTimeout() {
        return startupTimeout;
    }

    Map<String, String> settings(final int resolvedPort) {
        final Map<String, String> settings = new LinkedHashMap<>();
        settings.put("listen_addresses", netHost == null ? PostgresServer.HOST : PostgresServer.HOST + "," + netHost.address());
        // TCP only unless asked: a unix socket path has a 107-byte limit and zonky would put it in /tmp
        settings.put("unix_socket_directories", "''");
        settings.put("max_connections", "100");
        settings.putAll(PostgresServer.REPLICATION_SETTINGS);
        settings.putAll(durability.settings());
        settings.putAll(extraSettings);
        return settings;
    }
}
