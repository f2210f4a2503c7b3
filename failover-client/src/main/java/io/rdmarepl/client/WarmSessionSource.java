package io.rdmarepl.client;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Where a standby's warm pool ({@link PrimaryPool#warm}) opens its sessions. A session opened while the pool is not
 * adopted yet is made writable at once ({@link PrimaryPool#MAKE_SESSION_WRITABLE}): it started read-only, by the
 * standby's database default, and it is handed out only once the coordinator promoted that standby, writable as an
 * adoption would have made it, without a round trip to a server that is busy promoting just then. A session opened
 * once the pool is adopted gets nothing: it starts with the promoted server's own default, and follows a later fence
 * (ALTER SYSTEM), which a session's own setting would outrank.
 *
 * <p>Whether the pool was adopted is read when the open starts: a session that began before the adoption may have
 * begun before the promotion lifted the read-only default, and is made writable too.
 */
final class WarmSessionSource implements DataSource {
    private final String jdbcUrl;
    private final Properties properties;
    private final BooleanSupplier adopted;
    private volatile int loginTimeoutSeconds;

    /** @param properties the driver's, with {@code user} and {@code password} */
    WarmSessionSource(final String jdbcUrl, final Properties properties, final BooleanSupplier adopted) {
        this.jdbcUrl = jdbcUrl;
        this.properties = properties;
        this.adopted = adopted;
    }

    @Override
    public Connection getConnection() throws SQLException {
        final boolean beforeAdoption = !adopted.getAsBoolean();
        final Connection connection = DriverManager.getConnection(jdbcUrl, properties);
        if (beforeAdoption) {
            try (Statement statement = connection.createStatement()) {
                statement.execute(PrimaryPool.MAKE_SESSION_WRITABLE);
            } catch (final SQLException | RuntimeException ex) {
                try {
                    connection.close();
                } catch (final SQLException closing) {
                    ex.addSuppressed(closing);
                }
                throw ex;
            }
        }
        return connection;
    }

    @Override
    public Connection getConnection(final String username, final String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("a warm pool opens its sessions with the data source's own user");
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(final PrintWriter out) {
        // nothing to log: HikariCP logs the pool
    }

    @Override
    public void setLoginTimeout(final int seconds) {
        loginTimeoutSeconds = seconds; // the driver's own loginTimeout property applies
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeoutSeconds;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("no java.util.logging here");
    }

    @Override
    public <T> T unwrap(final Class<T> type) throws SQLException {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        throw new SQLException("not a wrapper of " + type.getName());
    }

    @Override
    public boolean isWrapperFor(final Class<?> type) {
        return type.isInstance(this);
    }
}
