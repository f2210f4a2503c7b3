package io.rdmarepl.harness.bench.lag;

import io.rdmarepl.config.postgres.ServerAddress;
import io.rdmarepl.testsupport.PostgresServer;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.postgresql.Driver;

/**
 * A PostgreSQL server the benchmark reaches over TCP: host, port and credentials, and any database on
 * it. Either an embedded server or one given with {@code --primary} / {@code --replica} as a JDBC URL
 * ({@code jdbc:postgresql://host:port/db?user=..&password=..}; the database part is not used). The
 * password is never printed. An embedded server listens on a Unix-domain socket too ({@code socketDirectory}), which
 * rdmarepl's shipper uses as a sidecar on the primary's host would.
 *
 * @param socketDirectory the server's Unix-domain socket directory, or null (TCP only, or not for the shipper)
 */
public record Endpoint(String host, int port, String user, String password, String socketDirectory) {
    /**
     * Prefix for the benchmark's own statements on the primary ({@code --mode sync} lists a standby there): their commits
     * wait for no standby, so cleaning up never hangs on one that is gone.
     */
    public static final String NO_STANDBY_WAIT = "SET synchronous_commit = local; ";

    public Endpoint(String host, int port, String user, String password) {
        this(host, port, user, password, null);
    }

    /** The embedded {@code server}, with its Unix-domain socket for rdmarepl's roles when {@code localSockets}. */
    public static Endpoint of(PostgresServer server, boolean localSockets) {
        java.nio.file.Path socket = localSockets ? server.socketDirectory() : null;
        return new Endpoint(PostgresServer.HOST, server.port(), PostgresServer.SUPERUSER, "", socket == null ? null : socket.toString());
    }

    public static Endpoint of(PostgresServer server) {
        return of(server, false);
    }

    /** What a shipper beside this server sets as {@code database.host}: its socket directory if it has one, else the host. */
    public String shipperHost() {
        return socketDirectory != null ? socketDirectory : host;
    }

    /** The JDBC URL an applier beside this server uses: through its socket if it has one, else {@link #jdbcUrl}. */
    public String applierJdbcUrl(String database) {
        return socketDirectory == null ? jdbcUrl(database)
                : new ServerAddress(socketDirectory, port).jdbcUrl(URLEncoder.encode(database, StandardCharsets.UTF_8), "disable", "");
    }

    /**
     * @throws IllegalArgumentException naming {@code option} when the URL is not a single-host PostgreSQL JDBC URL
     */
    static Endpoint parse(String option, String jdbcUrl) {
        Properties p = jdbcUrl == null ? null : Driver.parseURL(jdbcUrl, null);
        if (p == null) {
            throw new IllegalArgumentException(option + " " + masked(jdbcUrl) + ": not a PostgreSQL JDBC URL (jdbc:postgresql://host:port/db?user=...)");
        }
        String host = p.getProperty("PGHOST", "localhost");
        String port = p.getProperty("PGPORT", "5432");
        if (host.contains(",") || port.contains(",")) {
            throw new IllegalArgumentException(option + " " + masked(jdbcUrl) + ": give one host, not several");
        }
        return new Endpoint(host, Integer.parseInt(port), p.getProperty("user", "postgres"), p.getProperty("password", ""));
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://" + host + ":" + port + "/" + URLEncoder.encode(database, StandardCharsets.UTF_8);
    }

    public Connection connect(String database) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        if (!password.isEmpty()) {
            p.setProperty("password", password);
        }
        p.setProperty("ApplicationName", "rdmarepl-bench-lag");
        return DriverManager.getConnection(jdbcUrl(database), p);
    }

    /** Runs one or more statements (autocommit: also CREATE/DROP DATABASE and SUBSCRIPTION). */
    public void execute(String database, String sql) {
        try (Connection c = connect(database); Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(this + " database " + database + ": " + e.getMessage() + " in: " + sql, e);
        }
    }

    /** The first column of the first row of {@code sql}, as text (null without a row). */
    public String query(String database, String sql) {
        try (Connection c = connect(database); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw new IllegalStateException(this + " database " + database + ": " + e.getMessage() + " in: " + sql, e);
        }
    }

    /** libpq connection string, as a subscription on another server uses it to reach this one. */
    public String conninfo(String database) {
        String info = "host=" + quoted(host) + " port=" + port + " dbname=" + quoted(database) + " user=" + quoted(user);
        return password.isEmpty() ? info : info + " password=" + quoted(password);
    }

    private static String quoted(String value) {
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    /** The URL as given, password replaced: for the report. */
    static String masked(String jdbcUrl) {
        return jdbcUrl == null ? null : jdbcUrl.replaceAll("(?i)(password=)[^&]*", "$1******");
    }

    @Override
    public String toString() {
        return "PostgreSQL at " + host + ":" + port + " as " + user;
    }
}
