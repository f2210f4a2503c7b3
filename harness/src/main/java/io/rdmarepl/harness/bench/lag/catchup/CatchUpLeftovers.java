package io.rdmarepl.harness.bench.lag.catchup;

import io.rdmarepl.harness.bench.lag.Endpoint;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the benchmark would leave on the servers if it did not clean up: its subscriptions (replica), replication slots
 * and publications (primary), and its databases on either server. All zero after a good run.
 */
final class CatchUpLeftovers {
    private static final String PREFIX = "'rdmarepl\\_catchup%'";

    private CatchUpLeftovers() {
    }

    /** Subscriptions, slots and publications: while the bench database still exists. */
    static Map<String, Long> replication(Endpoint primary, String benchDatabase, Endpoint replica) {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("subscriptions", count(replica, "postgres", "SELECT count(*) FROM pg_subscription WHERE subname LIKE " + PREFIX));
        m.put("replication_slots", count(primary, "postgres", "SELECT count(*) FROM pg_replication_slots WHERE slot_name LIKE " + PREFIX));
        m.put("publications", count(primary, benchDatabase, "SELECT count(*) FROM pg_publication WHERE pubname LIKE " + PREFIX));
        return m;
    }

    /** The benchmark's databases on both servers: after they were dropped. */
    static long databases(Endpoint primary, Endpoint replica) {
        String sql = "SELECT count(*) FROM pg_database WHERE datname LIKE " + PREFIX;
        return count(primary, "postgres", sql) + (primary.equals(replica) ? 0 : count(replica, "postgres", sql));
    }

    private static long count(Endpoint server, String database, String sql) {
        return Long.parseLong(server.query(database, sql));
    }
}
