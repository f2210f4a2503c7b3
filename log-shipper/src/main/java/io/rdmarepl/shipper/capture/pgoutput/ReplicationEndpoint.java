package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.config.postgres.ServerAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Where and how {@link ReplicationConnection} connects: a logical replication connection
 * ({@code replication=database}) to one database of a primary; or, with {@code replication} false, where a plain
 * session of the same wire client connects ({@link PrimaryPing}).
 *
 * @param host             host name or address
 * @param port             TCP port
 * @param database         the database whose changes are decoded
 * @param user             a role with {@code REPLICATION} (or superuser)
 * @param password         for password, md5 and SCRAM authentication; null when the server trusts
 * @param sslMode          as libpq's {@code sslmode}
 * @param sslRootCert      PEM file of the root certificate(s), for {@code verify-ca} and {@code verify-full}; or null
 * @param applicationName  the walsender's {@code application_name}: what {@code synchronous_standby_names} names
 * @param connectTimeout   bound on the TCP connect and on each wait for the server during TLS and authentication
 * @param statusInterval   a standby status update goes out at least this often, acknowledged or not (the
 *                         walreceiver's {@code wal_receiver_status_interval}, 10 s there too)
 * @param receiveTimeout   no message from the server for this long closes the connection; at half of it a status
 *                         update asks the server for a reply (the walreceiver's {@code wal_receiver_timeout},
 *                         60 s). Zero disables it.
 * @param replication      true for a walsender session ({@code replication=database}), false for a plain backend
 * @param receiveBufferBytes the TCP receive buffer asked for ({@code SO_RCVBUF}) before connecting; 0 leaves it to the
 *                         kernel's autotuning. Unix-domain sockets ignore it. See {@link BackendReader#paceBy}.
 */
public record ReplicationEndpoint(
    String host,
    int port,
    String database,
    String user,
    String password,
    SslMode sslMode,
    Path sslRootCert,
    String applicationName,
    Duration connectTimeout,
    Duration statusInterval,
    Duration receiveTimeout,
    boolean replication,
    int receiveBufferBytes) {

    public static final SslMode SSL_MODE_DEFAULT = SslMode.PREFER;
    public static final String APPLICATION_NAME_DEFAULT = "rdmarepl";
    public static final Duration CONNECT_TIMEOUT_DEFAULT = Duration.ofSeconds(10);
    public static final Duration STATUS_INTERVAL_DEFAULT = Duration.ofSeconds(10);
    public static final Duration RECEIVE_TIMEOUT_DEFAULT = Duration.ofSeconds(60);
    /** The kernel's autotuning. */
    public static final int RECEIVE_BUFFER_DEFAULT = 0;

    public ReplicationEndpoint {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(sslMode, "sslMode");
        Objects.requireNonNull(applicationName, "applicationName");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be in [1, 65535]: " + port);
        }
        if (host.isEmpty() || database.isEmpty() || user.isEmpty()) {
            throw new IllegalArgumentException("host, database and user must not be empty: " + describe(host, port, user, database));
        }
        requirePositive("connectTimeout", connectTimeout);
        requirePositive("statusInterval", statusInterval);
        Objects.requireNonNull(receiveTimeout, "receiveTimeout");
        if (receiveTimeout.isNegative()) {
            throw new IllegalArgumentException("receiveTimeout must be zero (off) or positive: " + receiveTimeout);
        }
        if (receiveBufferBytes < 0) {
            throw new IllegalArgumentException("receiveBufferBytes must be zero (the kernel's) or positive: " + receiveBufferBytes);
        }
        if ((sslMode == SslMode.VERIFY_CA || sslMode == SslMode.VERIFY_FULL) && sslRootCert == null) {
            throw new IllegalArgumentException("sslmode " + sslMode + " needs sslRootCert (a PEM file of the root certificate)");
        }
    }

    /** Defaults: no password, sslmode prefer, application_name {@value #APPLICATION_NAME_DEFAULT}, 10 s / 10 s / 60 s. */
    public static ReplicationEndpoint of(String host, int port, String database, String user) {
        return new ReplicationEndpoint(host, port, database, user, null, SSL_MODE_DEFAULT, null,
            APPLICATION_NAME_DEFAULT, CONNECT_TIMEOUT_DEFAULT, STATUS_INTERVAL_DEFAULT, RECEIVE_TIMEOUT_DEFAULT, true,
            RECEIVE_BUFFER_DEFAULT);
    }

    public ReplicationEndpoint withPassword(String password) {
        return new ReplicationEndpoint(host, port, database, user, password, sslMode, sslRootCert, applicationName,
            connectTimeout, statusInterval, receiveTimeout, replication, receiveBufferBytes);
    }

    public ReplicationEndpoint withSsl(SslMode sslMode, Path sslRootCert) {
        return new ReplicationEndpoint(host, port, database, user, password, sslMode, sslRootCert, applicationName,
            connectTimeout, statusInterval, receiveTimeout, replication, receiveBufferBytes);
    }

    public ReplicationEndpoint withApplicationName(String applicationName) {
        return new ReplicationEndpoint(host, port, database, user, password, sslMode, sslRootCert, applicationName,
            connectTimeout, statusInterval, receiveTimeout, replication, receiveBufferBytes);
    }

    public ReplicationEndpoint withTimeouts(Duration connectTimeout, Duration statusInterval, Duration receiveTimeout) {
        return new ReplicationEndpoint(host, port, database, user, password, sslMode, sslRootCert, applicationName,
            connectTimeout, statusInterval, receiveTimeout, replication, receiveBufferBytes);
    }

    public ReplicationEndpoint withReceiveBuffer(int receiveBufferBytes) {
        return new ReplicationEndpoint(host, port, database, user, password, sslMode, sslRootCert, applicationName,
            connectTimeout, statusInterval, receiveTimeout, replication, receiveBufferBytes);
    }

    /** The same server, database and credentials for a plain backend session named {@code applicationName}. */
    public ReplicationEndpoint plainSession(String applicationName) {
        return new ReplicationEndpoint(host, port, database, user, password, sslMode, sslRootCert, applicationName,
            connectTimeout, statusInterval, receiveTimeout, false, RECEIVE_BUFFER_DEFAULT);
    }

    /** What every error message starts with: e.g. {@code replication connection to 127.0.0.1:5432 (user r, database shop)}. */
    public String title() {
        return (replication ? "replication connection to " : "connection to ") + describe();
    }

    /** @return e.g. {@code 127.0.0.1:5432 (user rdmarepl, database shop)} */
    public String describe() {
        return describe(host, port, user, database);
    }

    /** The password masked. */
    @Override
    public String toString() {
        return "ReplicationEndpoint[" + describe() + (replication ? "" : ", plain session") + ", password=" + (password == null ? "none" : "****")
            + ", sslmode=" + sslMode + (sslRootCert == null ? "" : ", sslrootcert=" + sslRootCert)
            + ", application_name=" + applicationName + ", connectTimeout=" + connectTimeout
            + ", statusInterval=" + statusInterval + ", receiveTimeout=" + receiveTimeout
            + (receiveBufferBytes == 0 ? "" : ", receiveBuffer=" + receiveBufferBytes) + "]";
    }

    private static String describe(String host, int port, String user, String database) {
        String address = ServerAddress.isSocketDirectory(host) ? new ServerAddress(host, port).toString()
            : (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        return address + " (user " + user + ", database " + database + ")";
    }

    private static void requirePositive(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + value);
        }
    }
}
