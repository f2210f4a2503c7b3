package io.rdmarepl.testsupport.compare;

import io.rdmarepl.testsupport.PostgresServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;

/**
 * One side of a comparison: a connection in a read-only REPEATABLE READ transaction (one snapshot for every table
 * of the side) whose session settings make every value's text form the same whatever the server's, database's,
 * role's or session's defaults. The settings are {@code SET LOCAL}: they end with the transaction, which is
 * rolled back, so a connection the caller lends comes back as it was.
 */
final class ServerSession implements AutoCloseable {
    /** Every setting a type's output function reads, fixed. client_encoding: pgjdbc insists on UTF8 anyway. */
    static final String[][] SETTINGS = {
        {"TimeZone", "UTC"},
        {"DateStyle", "ISO, YMD"},
        {"IntervalStyle", "postgres"},
        {"extra_float_digits", "3"},
        {"bytea_output", "hex"},
        {"lc_monetary", "C"},
        {"client_encoding", "UTF8"},
    };

    private final String label;
    private final Connection connection;
    private final boolean owned;
    private final boolean autoCommitBefore;

    private ServerSession(String label, Connection connection, boolean owned, boolean autoCommitBefore) {
        this.label = label;
        this.connection = connection;
        this.owned = owned;
        this.autoCommitBefore = autoCommitBefore;
    }

    /** Connects to {@code database} of the server; {@link #close()} closes the connection. */
    static ServerSession open(String role, PostgresServer server, String database) throws SQLException {
        String label = role + " '" + server.name() + "' (" + PostgresServer.HOST + ":" + server.port() + ", database " + database + ")";
        Connection connection;
        try {
            connection = server.connect(database);
        } catch (SQLException e) {
            throw new SQLException(label + ": cannot connect: " + e.getMessage(), e.getSQLState(), e);
        }
        return begin(new ServerSession(label, connection, true, true));
    }

    /**
     * Uses the caller's connection, which must not be inside a transaction; {@link #close()} rolls the comparison's
     * transaction back and restores auto-commit, and leaves the connection open.
     */
    static ServerSession adopt(String role, Connection connection) throws SQLException {
        String label = role + " (" + connection.getMetaData().getURL() + ")";
        if (connection.isWrapperFor(BaseConnection.class)
                && connection.unwrap(BaseConnection.class).getTransactionState() != TransactionState.IDLE) {
            throw new SQLException(label + ": the connection is inside a transaction; the comparison needs its own "
                    + "(one snapshot, read only): commit or roll back first");
        }
        return begin(new ServerSession(label, connection, false, connection.getAutoCommit()));
    }

    private static ServerSession begin(ServerSession session) throws SQLException {
        try (Statement s = session.connection.createStatement()) {
            session.connection.setAutoCommit(false);
            s.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
            StringBuilder set = new StringBuilder("SELECT ");
            for (String[] setting : SETTINGS) {
                set.append(set.length() > 7 ? ", " : "").append("pg_catalog.set_config('").append(setting[0]).append("', '")
                        .append(setting[1]).append("', true)");
            }
            s.execute(set.toString());
        } catch (SQLException e) {
            SQLException failure = session.failure("start a read-only transaction with fixed session settings", e);
            try {
                session.close();
            } catch (SQLException closeFailure) {
                failure.addSuppressed(closeFailure);
            }
            throw failure;
        }
        return session;
    }

    /** @return e.g. {@code primary 'primary' (127.0.0.1:5432, database postgres)} */
    String label() {
        return label;
    }

    Connection connection() {
        return connection;
    }

    /** @return an exception naming this side and what could not be done, the server's message and SQLState kept */
    SQLException failure(String what, SQLException cause) {
        return new SQLException(label + ": cannot " + what + ": " + cause.getMessage(), cause.getSQLState(), cause);
    }

    @Override
    public void close() throws SQLException {
        try {
            if (!connection.isClosed()) {
                connection.rollback();
                connection.setAutoCommit(autoCommitBefore);
            }
        } finally {
            if (owned) {
                connection.close();
            }
        }
    }
}
