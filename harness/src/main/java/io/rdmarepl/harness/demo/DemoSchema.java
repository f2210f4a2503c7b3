package io.rdmarepl.harness.demo;

/**
 * The demo's tables: pgbench's four (history keyless, replicated with REPLICA IDENTITY FULL), a
 * table with every supported type, and the lag probe. The replica gets the same tables, plus the
 * probe's {@code applied_at}, stamped by an {@code ENABLE ALWAYS} trigger (it fires under the
 * applier's replica session role, as under PostgreSQL's own apply), the way PostgreSQL's logical
 * replication lag is measured too.
 */
final class DemoSchema {
    static final int BRANCHES = 4;
    static final int TELLERS = 40;
    static final int ACCOUNTS = 10_000;

    private static final String TABLES = """
            CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
            CREATE TABLE branches (bid int PRIMARY KEY, bbalance bigint NOT NULL, filler text);
            CREATE TABLE tellers (tid int PRIMARY KEY, bid int NOT NULL, tbalance bigint NOT NULL, filler text);
            CREATE TABLE accounts (aid int PRIMARY KEY, bid int NOT NULL, abalance bigint NOT NULL, filler text);
            CREATE TABLE history (tid int, bid int, aid int, delta int, mtime timestamptz, filler text);
            ALTER TABLE history REPLICA IDENTITY FULL;
            CREATE TABLE all_types (id bigint PRIMARY KEY, i2 smallint, i4 int, i8 bigint, num numeric, f4 real,
                f8 double precision, b bool, t text, vc varchar(20), bp char(5), ba bytea, d date, tm time,
                ts timestamp, tstz timestamptz, iv interval, u uuid, j json, jb jsonb, ip inet, net cidr, mac macaddr,
                arr int[], tarr text[], m mood, pt point, big text);
            CREATE TABLE probe (id bigint PRIMARY KEY, sent_at timestamptz NOT NULL DEFAULT clock_timestamp());
            """;

    static String primary() {
        return TABLES;
    }

    static String replica() {
        return TABLES + """
                ALTER TABLE probe ADD COLUMN applied_at timestamptz;
                CREATE FUNCTION probe_applied() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN NEW.applied_at := clock_timestamp(); RETURN NEW; END $$;
                CREATE TRIGGER probe_applied BEFORE INSERT ON probe FOR EACH ROW EXECUTE FUNCTION probe_applied();
                ALTER TABLE probe ENABLE ALWAYS TRIGGER probe_applied;
                """;
    }

    /** Initial pgbench rows, loaded on both servers before replication starts. */
    static String seed() {
        return "INSERT INTO branches SELECT b, 0, NULL FROM generate_series(1, " + BRANCHES + ") b;"
                + "INSERT INTO tellers SELECT t, (t - 1) / 10 + 1, 0, NULL FROM generate_series(1, " + TELLERS + ") t;"
                + "INSERT INTO accounts SELECT a, (a - 1) / 2500 + 1, 0, '' FROM generate_series(1, " + ACCOUNTS + ") a;";
    }

    private DemoSchema() {
    }
}
