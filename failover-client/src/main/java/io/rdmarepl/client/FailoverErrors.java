package io.rdmarepl.client;

import java.sql.SQLException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Sorts SQL errors by SQLState into "this server is not the primary any more, or cannot be reached" and the rest.
 * The first kind is worth retrying on whichever server is primary next; the rest (constraint violations, syntax
 * errors, serialization failures...) are the caller's to handle.
 */
final class FailoverErrors {
    /** A write reached a server that was made read-only: the coordinator fenced it. */
    static final String READ_ONLY_SQL_TRANSACTION = "25006";
    /** pg_terminate_backend(): the coordinator (or an operator) cut our session. */
    static final String ADMIN_SHUTDOWN = "57P01";
    /** The server is shutting down in immediate mode. */
    static final String CRASH_SHUTDOWN = "57P02";
    /** The server is starting, shutting down or in recovery: not accepting connections. */
    static final String CANNOT_CONNECT_NOW = "57P03";
    /** Connection exceptions: refused, broken, closed, unable to establish. */
    static final String CONNECTION_EXCEPTION_CLASS = "08";

    private static final int MAX_CHAIN = 20;

    private FailoverErrors() {
    }

    /**
     * @return true if the error, or one it wraps (cause or next exception), has a SQLState saying the server is
     * no longer the primary or the connection to it is gone.
     */
    static boolean isFailoverError(final SQLException error) {
        final Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        return check(error, seen);
    }

    private static boolean check(final Throwable error, final Set<Throwable> seen) {
        if (error == null || seen.size() >= MAX_CHAIN || !seen.add(error)) {
            return false;
        }
        if (error instanceof SQLException && isFailoverState(((SQLException) error).getSQLState())) {
            return true;
        }
        if (error instanceof SQLException && check(((SQLException) error).getNextException(), seen)) {
            return true;
        }
        return check(error.getCause(), seen);
    }

    static boolean isFailoverState(final String sqlState) {
        if (sqlState == null) {
            return false;
        }
        return sqlState.startsWith(CONNECTION_EXCEPTION_CLASS) ||
            READ_ONLY_SQL_TRANSACTION.equals(sqlState) ||
            ADMIN_SHUTDOWN.equals(sqlState) ||
            CRASH_SHUTDOWN.equals(sqlState) ||
            CANNOT_CONNECT_NOW.equals(sqlState);
    }
}
