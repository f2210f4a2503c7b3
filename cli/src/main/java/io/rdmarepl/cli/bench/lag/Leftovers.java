package io.rdmarepl.cli.bench.lag;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the benchmark would leave on the servers if a round did not clean up: its subscriptions (on the
 * replica), replication slots and publications (on the primary). Reported; all zero after a good run.
 */
final class Leftovers {
    private static final String PREFIX = "'rdmarepl\\_lag%'";

    private Leftovers() {
    }

    static Map<String, Object> count(Endpoint primary, String benchDatabase, Endpoint replica) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("subscriptions", Long.parseLong(replica.query("postgres",
                "SELECT count(*) FROM pg_subscription WHERE subname LIKE " + PREFIX)));
        m.put("replication_slots", Long.parseLong(primary.query("postgres",
                "SELECT count(*) FROM pg_replication_slots WHERE slot_name LIKE " + PREFIX)));
        m.put("publications", Long.parseLong(primary.query(benchDatabase,
                "SELECT count(*) FROM pg_publication WHERE pubname LIKE " + PREFIX)));
        return m;
    }

    static boolean none(Map<String, Object> counts) {
        return counts.values().stream().allMatch(v -> ((Number) v).longValue() == 0);
    }
}
