package io.rdmarepl.applier.apply;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.rdmarepl.applier.config.ApplierConfig;

/**
 * The HikariCP pool of applier sessions. Each session pins what exact apply needs, whatever the database's
 * defaults: writable (clients default to read-only), {@code session_replication_role}, {@code synchronous_commit},
 * and TimeZone UTC, DateStyle ISO, IntervalStyle postgres, full float precision, hex bytea, UTF8: the initial copy's
 * sessions on the primary print with these settings, and a CopyChunk's text is read back with them.
 */
public final class ReplicaDataSource {
    private ReplicaDataSource() {
    }

    public static HikariDataSource create(ApplierConfig config) {
        HikariConfig hikari = new HikariConfig();
        hikari.setPoolName("rdmarepl-applier");
        hikari.setJdbcUrl(config.replicaJdbcUrl());
        hikari.setUsername(config.replicaUser());
        if (!config.replicaPassword().isEmpty()) {
            hikari.setPassword(config.replicaPassword());
        }
        // every apply worker holds a connection for as long as it runs; one more serves promotion and status
        hikari.setMaximumPoolSize(Math.max(config.replicaPoolSize(), config.parallelWorkers() + 1));
        hikari.setMinimumIdle(1);
        hikari.setConnectionTimeout(config.replicaConnectTimeoutMs());
        hikari.setAutoCommit(true);
        hikari.addDataSourceProperty("ApplicationName", "rdmarepl-applier " + config.sourceName());
        // a batch of inserts goes as multi-row INSERTs (pgjdbc splits it into statements of up to 128 rows): fewer
        // statements for the server to execute, above all for initial-copy chunks; insert counts are not read
        hikari.addDataSourceProperty("reWriteBatchedInserts", "true");
        hikari.setConnectionInitSql(sessionSql(config));
        return new HikariDataSource(hikari);
    }

    /** The statements every applier session starts with. */
    public static String sessionSql(ApplierConfig config) {
        return "SET default_transaction_read_only = off; "
                + "SET session_replication_role = " + config.sessionReplicationRole() + "; "
                + "SET synchronous_commit = " + config.synchronousCommit() + "; "
                + "SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET IntervalStyle = 'postgres'; "
                + "SET extra_float_digits = 3; SET bytea_output = 'hex'; SET client_encoding = 'UTF8'";
    }
}
