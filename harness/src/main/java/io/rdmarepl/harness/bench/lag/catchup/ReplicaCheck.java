package io.rdmarepl.harness.bench.lag.catchup;

import io.rdmarepl.harness.bench.lag.Endpoint;
import io.rdmarepl.testsupport.compare.ComparisonReport;
import io.rdmarepl.testsupport.compare.ReplicaComparison;
import io.rdmarepl.testsupport.compare.TableResult;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Replica = primary after a catch-up, row by row: every pgbench table and the marker compared with test-support's
 * {@link ReplicaComparison} (each row's values in their type-exact text form, rows as multisets, a row with other values
 * reported column by column under its key). Sequences are not compared: PostgreSQL's logical replication does not carry
 * them, and rdmarepl ships them at an interval.
 *
 * @param tables      tables compared
 * @param rows        rows compared (the primary's, all tables)
 * @param differences every difference found, listed or not
 * @param listed      the first differences, one line each ({@value #LISTED} at most)
 */
record ReplicaCheck(int tables, long rows, long differences, List<String> listed) {
    static final int LISTED = 20;

    ReplicaCheck {
        listed = List.copyOf(listed);
    }

    boolean equal() {
        return differences == 0;
    }

    /** Compares {@code replicaDatabase} of {@code replica} with {@code primaryDatabase} of {@code primary}. */
    static ReplicaCheck between(Endpoint primary, String primaryDatabase, Endpoint replica, String replicaDatabase) {
        try (Connection p = primary.connect(primaryDatabase); Connection r = replica.connect(replicaDatabase)) {
            ComparisonReport report = ReplicaComparison.between(p, r)
                    .tables(TpcbTables.NAMES.stream().map(t -> "public." + t).toArray(String[]::new))
                    .sequences(false)
                    .run();
            return new ReplicaCheck(report.tables().size(), report.tables().stream().mapToLong(TableResult::primaryRows).sum(),
                    report.differenceCount(), report.differences().stream().limit(LISTED).map(Object::toString).toList());
        } catch (SQLException e) {
            throw new IllegalStateException("cannot compare " + replica + " database " + replicaDatabase + " with " + primary
                    + " database " + primaryDatabase + ": " + e.getMessage(), e);
        }
    }

    /** For the report and the progress line: "equal (5 tables, 110,011 rows)" or the differences. */
    String describe() {
        return equal() ? String.format(java.util.Locale.ROOT, "replica equals the primary (%d tables, %,d rows)", tables, rows)
                : "REPLICA DIFFERS, " + differences + " difference(s): " + String.join("; ", listed);
    }
}
