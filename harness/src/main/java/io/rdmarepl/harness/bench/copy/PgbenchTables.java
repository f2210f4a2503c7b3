package io.rdmarepl.harness.bench.copy;

import io.rdmarepl.harness.bench.lag.Endpoint;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * pgbench's four tables as {@code pgbench -i -s SCALE} makes them (its server-side generation, then primary keys and
 * VACUUM ANALYZE): per unit of scale 1 branch, 10 tellers and 100,000 accounts, history empty. At scale 20
 * pgbench_accounts holds 2,000,000 rows, 299 MB with its index. History has no key, as in pgbench: REPLICA IDENTITY
 * FULL, which only matters to changes, never to a copy.
 */
final class PgbenchTables {
    static final List<String> NAMES = List.of("pgbench_accounts", "pgbench_branches", "pgbench_history", "pgbench_tellers");

    /** pgbench's DDL (fillfactor 100, filler char(n)), with its primary keys: what the copy fills on the replica. */
    static final String SCHEMA = """
            CREATE TABLE pgbench_history (tid int, bid int, aid int, delta int, mtime timestamp, filler char(22));
            ALTER TABLE pgbench_history REPLICA IDENTITY FULL;
            CREATE TABLE pgbench_tellers (tid int NOT NULL PRIMARY KEY, bid int, tbalance int, filler char(84)) WITH (fillfactor = 100);
            CREATE TABLE pgbench_accounts (aid int NOT NULL PRIMARY KEY, bid int, abalance int, filler char(84)) WITH (fillfactor = 100);
            CREATE TABLE pgbench_branches (bid int NOT NULL PRIMARY KEY, bbalance int, filler char(88)) WITH (fillfactor = 100);
            """;

    private PgbenchTables() {
    }

    /** The tables without their keys, filled as pgbench's server-side generation fills them, then keyed and analyzed. */
    static void create(Endpoint primary, String database, int scale) {
        String unkeyed = SCHEMA.replace(" PRIMARY KEY", "");
        primary.execute(database, unkeyed
                + "INSERT INTO pgbench_branches (bid, bbalance) SELECT bid, 0 FROM generate_series(1, " + scale + ") bid;"
                + "INSERT INTO pgbench_tellers (tid, bid, tbalance) SELECT tid, (tid - 1) / 10 + 1, 0 FROM generate_series(1, "
                + 10L * scale + ") tid;"
                + "INSERT INTO pgbench_accounts (aid, bid, abalance, filler) SELECT aid, (aid - 1) / 100000 + 1, 0, ''"
                + " FROM generate_series(1, " + 100_000L * scale + ") aid;"
                + "ALTER TABLE pgbench_branches ADD PRIMARY KEY (bid);"
                + "ALTER TABLE pgbench_tellers ADD PRIMARY KEY (tid);"
                + "ALTER TABLE pgbench_accounts ADD PRIMARY KEY (aid);");
        primary.execute(database, "VACUUM ANALYZE");
    }

    /** Rows of each table, in {@link #NAMES} order. */
    static Map<String, Long> rows(Endpoint server, String database) {
        Map<String, Long> rows = new LinkedHashMap<>();
        for (String table : NAMES) {
            rows.put(table, Long.parseLong(server.query(database, "SELECT count(*) FROM " + table)));
        }
        return rows;
    }

    /**
     * Per table, its row count and the sum of a 64-bit hash of every row's text: equal on two servers only when they
     * hold the same rows with the same values, in any order (a value cut, padded or rounded differs).
     */
    static Map<String, String> digest(Endpoint server, String database) {
        Map<String, String> digest = new LinkedHashMap<>();
        for (String table : NAMES) {
            digest.put(table, server.query(database, "SELECT count(*) || ' rows, hash sum ' || coalesce(sum(hashtextextended(t::text, 0)"
                    + "::numeric), 0) FROM " + table + " t"));
        }
        return digest;
    }

    /** The four tables' size with their indexes and TOAST ({@code pg_total_relation_size}). */
    static long bytes(Endpoint server, String database) {
        return Long.parseLong(server.query(database, "SELECT sum(pg_total_relation_size(c.oid))::bigint FROM pg_class c"
                + " WHERE c.relname IN ('" + String.join("', '", NAMES) + "') AND c.relkind = 'r'"));
    }

    /** For publications and subscriptions: the tables, comma-separated. */
    static String list() {
        return String.join(", ", NAMES);
    }

    /** For the shipper's publication.tables. */
    static String shipperList() {
        return String.join(",", NAMES.stream().map(t -> "public." + t).toList());
    }
}
