package io.rdmarepl.client;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Work done in one transaction by {@link FailoverDataSource#inTransaction(SqlWork, java.time.Duration)}: it may
 * run more than once (see there), so it must be idempotent or its caller must accept at-least-once.
 * It must not commit, roll back or close the connection.
 */
@FunctionalInterface
public interface SqlWork<T> {
    T run(Connection connection) throws SQLException;
}
