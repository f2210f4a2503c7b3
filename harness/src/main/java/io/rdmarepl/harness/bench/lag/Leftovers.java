package io.rdmarepl.harness.bench.lag;

import io.rdmarepl.harness.bench.PhysicalStandby;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the benchmark would leave on the servers if a round did not clean up: its subscriptions (on the
 * replica), replication slots (the physical standby's included) and publications (on the primary), and a
 * {@code synchronous_standby_names} on the primary still listing one of its standbys (every later commit there
 * would wait for it). Reported; all zero or empty after a good run.
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
                "SELECT count(*) FROM pg_replication_slots WHERE slot_name LIKE " + PREFIX + " OR slot_name = '"
                        + PhysicalStandby.SLOT + "'")));
        m.put("publications", Long.parseLong(primary.query(benchDatabase,
                "SELECT count(*) FROM pg_publication WHERE pubname LIKE " + PREFIX)));
        m.put("synchronous_standby_names", ours(SynchronousStandbys.current(primary)));
        return m;
    }

    /** The setting when it lists the benchmark's standbys, else "" (empty, or an operator's own, left alone). */
    static String ours(String synchronousStandbyNames) {
        String value = synchronousStandbyNames == null ? "" : synchronousStandbyNames.strip();
        return SynchronousStandbys.oursOrEmpty(value) ? value : "";
    }

    static boolean none(Map<String, Object> counts) {
        return counts.values().stream().allMatch(v -> v instanceof Number n ? n.longValue() == 0 : v == null || v.toString().isEmpty());
    }
}
