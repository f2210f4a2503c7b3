package io.rdmarepl.harness.bench.lag;

import java.util.List;

/**
 * The tables every system replicates: pgbench's four (TPC-B; history with a bigserial key, which pgbench's
 * lacks, and its filler sized by {@code --row-bytes}) and the probe ({@link ProbeTable}). Recreated and
 * seeded the same on both sides before each system runs, so rounds are independent.
 */
final class BenchTables {
    static final int BRANCHES = 10;
    static final int TELLERS = 100;
    static final int ACCOUNTS = 10_000;
    /** Replicated tables, for publications ({@code public.} prefixed for the shipper). */
    static final List<String> NAMES = List.of("branches", "tellers", "accounts", "history", "probe");

    private static final String DROP = "DROP TABLE IF EXISTS probe, history, accounts, tellers, branches;"
            + "DROP FUNCTION IF EXISTS probe_applied();";

    private static final String PGBENCH = """
            CREATE TABLE branches (bid int PRIMARY KEY, bbalance bigint NOT NULL, filler text);
            CREATE TABLE tellers (tid int PRIMARY KEY, bid int NOT NULL, tbalance bigint NOT NULL, filler text);
            CREATE TABLE accounts (aid int PRIMARY KEY, bid int NOT NULL, abalance bigint NOT NULL, filler text);
            CREATE TABLE history (hid bigserial PRIMARY KEY, tid int, bid int, aid int, delta int, mtime timestamptz, filler text);
            """;

    private static final String SEED = "INSERT INTO branches SELECT b, 0, NULL FROM generate_series(1, " + BRANCHES + ") b;"
            + "INSERT INTO tellers SELECT t, (t - 1) / 10 + 1, 0, NULL FROM generate_series(1, " + TELLERS + ") t;"
            + "INSERT INTO accounts SELECT a, (a - 1) / 1000 + 1, 0, '' FROM generate_series(1, " + ACCOUNTS + ") a;";

    private BenchTables() {
    }

    /** Drops and recreates the tables on the primary, seeded. */
    static String primary() {
        return DROP + PGBENCH + ProbeTable.PRIMARY + SEED;
    }

    /** The replica's tables (in a fresh database), seeded as the primary's. */
    static String replica() {
        return PGBENCH + ProbeTable.REPLICA + SEED;
    }

    static String publicationList() {
        return String.join(", ", NAMES);
    }

    static String shipperList() {
        return String.join(",", NAMES.stream().map(t -> "public." + t).toList());
    }
}
