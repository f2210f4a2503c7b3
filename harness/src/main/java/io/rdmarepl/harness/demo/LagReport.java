package io.rdmarepl.harness.demo;

import io.rdmarepl.testsupport.PostgresServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Commit to applied lag from the probe table: {@code sent_at} by {@code clock_timestamp()} on the
 * primary, {@code applied_at} by the replica's trigger, the same clock (one host).
 */
record LagReport(long samples, long p50Us, long p90Us, long p99Us, long maxUs) {

    /** Lag of the probes after the first {@code warmupProbes}. */
    static LagReport read(PostgresServer replica, long warmupProbes) throws SQLException {
        try (Connection c = replica.connect("postgres"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("""
                     SELECT count(*),
                            percentile_disc(0.5) WITHIN GROUP (ORDER BY lag),
                            percentile_disc(0.9) WITHIN GROUP (ORDER BY lag),
                            percentile_disc(0.99) WITHIN GROUP (ORDER BY lag),
                            max(lag)
                       FROM (SELECT (extract(epoch FROM applied_at - sent_at) * 1000000)::bigint AS lag
                               FROM probe WHERE id > %d AND applied_at IS NOT NULL) l
                     """.formatted(warmupProbes))) {
            rs.next();
            return new LagReport(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5));
        }
    }
}
