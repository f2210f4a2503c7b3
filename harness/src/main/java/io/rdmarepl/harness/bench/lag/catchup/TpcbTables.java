package io.rdmarepl.harness.bench.lag.catchup;

import io.rdmarepl.harness.bench.lag.Endpoint;
import java.util.List;

/**
 * pgbench's four tables as {@code pgbench -i -s SCALE} makes them (per unit of scale 1 branch, 10 tellers, 100,000
 * accounts; history empty), with two differences: {@code pgbench_history} has a key ({@code hid bigserial}), which
 * pgbench's lacks, so no transaction of the load touches a keyless ({@code REPLICA IDENTITY FULL}) table, as in
 * {@code bench lag}'s tables; and {@code catchup_marker}, where one row committed after the load tells that a replica
 * holds the whole backlog. Made the same, seeded the same, on the primary and in every system's replica database.
 */
final class TpcbTables {
    static final List<String> NAMES = List.of("pgbench_branches", "pgbench_tellers", "pgbench_accounts", "pgbench_history",
            "catchup_marker");
    static final int ACCOUNTS_PER_SCALE = 100_000;
    static final int TELLERS_PER_SCALE = 10;

    private static final String DROP = "DROP TABLE IF EXISTS catchup_marker, pgbench_history, pgbench_accounts, pgbench_tellers,"
            + " pgbench_branches;";

    private static final String SCHEMA = """
            CREATE TABLE pgbench_branches (bid int NOT NULL PRIMARY KEY, bbalance int, filler char(88)) WITH (fillfactor = 100);
            CREATE TABLE pgbench_tellers (tid int NOT NULL PRIMARY KEY, bid int, tbalance int, filler char(84)) WITH (fillfactor = 100);
            CREATE TABLE pgbench_accounts (aid int NOT NULL PRIMARY KEY, bid int, abalance int, filler char(84)) WITH (fillfactor = 100);
            CREATE TABLE pgbench_history (hid bigserial PRIMARY KEY, tid int, bid int, aid int, delta int, mtime timestamp, filler char(22));
            CREATE TABLE catchup_marker (round int PRIMARY KEY, committed_at timestamptz NOT NULL);
            """;

    private TpcbTables() {
    }

    /** Drops and recreates the tables in {@code database}, seeded for {@code scale}, then VACUUM ANALYZE (as pgbench -i). */
    static void create(Endpoint server, String database, int scale) {
        server.execute(database, Endpoint.NO_STANDBY_WAIT + DROP + SCHEMA
                + "INSERT INTO pgbench_branches (bid, bbalance) SELECT bid, 0 FROM generate_series(1, " + scale + ") bid;"
                + "INSERT INTO pgbench_tellers (tid, bid, tbalance) SELECT tid, (tid - 1) / " + TELLERS_PER_SCALE
                + " + 1, 0 FROM generate_series(1, " + (long) TELLERS_PER_SCALE * scale + ") tid;"
                + "INSERT INTO pgbench_accounts (aid, bid, abalance, filler) SELECT aid, (aid - 1) / " + ACCOUNTS_PER_SCALE
                + " + 1, 0, '' FROM generate_series(1, " + (long) ACCOUNTS_PER_SCALE * scale + ") aid;");
        server.execute(database, "VACUUM ANALYZE");
    }

    /** The marker transaction: committed after every load transaction. */
    static String marker(int round) {
        return "INSERT INTO catchup_marker VALUES (" + round + ", clock_timestamp())";
    }

    /** Whether {@code round}'s marker is there (on a replica: the whole backlog is). */
    static String markerQuery() {
        return "SELECT 1 FROM catchup_marker WHERE round = ?";
    }

    /** For publications and subscriptions. */
    static String list() {
        return String.join(", ", NAMES);
    }

    /** For the shipper's publication.tables. */
    static String shipperList() {
        return String.join(",", NAMES.stream().map(t -> "public." + t).toList());
    }
}
