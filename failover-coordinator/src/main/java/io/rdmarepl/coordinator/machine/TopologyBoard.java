package io.rdmarepl.coordinator.machine;

import io.rdmarepl.coordinator.state.ClusterState;
import io.rdmarepl.coordinator.state.Member;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The topology clients follow ({@code GET /topology}): the current primary (none while a failover is under way),
 * the epoch and every member, with a version that moves on every change. Readers may wait for the next version
 * (long poll), so a failover reaches them as soon as it is published.
 */
public final class TopologyBoard {
    private Map<String, Object> document = starting();
    private long version = -1;

    /** Before the first publish: the full shape, no primary yet, so clients simply wait. */
    private static Map<String, Object> starting() {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("cluster", "");
        doc.put("version", -1L);
        doc.put("epoch", 0);
        doc.put("phase", "STARTING");
        doc.put("primary", null);
        doc.put("members", List.of());
        return doc;
    }

    /**
     * @param jdbcUrlOf where a member is reached now (the configuration's address wins over the one stored when
     *                  the cluster was initialised, so a moved server is followed after a coordinator restart)
     */
    synchronized void publish(ClusterState state, long storeVersion, java.util.function.UnaryOperator<String> jdbcUrlOf) {
        if (storeVersion == version) {
            return;
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("cluster", state.cluster());
        doc.put("version", storeVersion);
        doc.put("epoch", state.epoch());
        doc.put("phase", state.phase().name());
        Member primary = state.phase().hasWritablePrimary() ? state.member(state.primary()).orElse(null) : null;
        doc.put("primary", primary == null ? null : Map.of("name", primary.name(), "jdbc_url", jdbcUrlOf.apply(primary.name())));
        List<Map<String, Object>> members = new ArrayList<>();
        for (Member m : state.members()) {
            members.add(Map.of("name", m.name(), "jdbc_url", jdbcUrlOf.apply(m.name()), "role", m.role().name()));
        }
        doc.put("members", members);
        document = doc;
        version = storeVersion;
        notifyAll();
    }

    /** The topology once its version is above {@code after}, or the current one after {@code waitMs}. */
    public synchronized Map<String, Object> await(long after, long waitMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + Math.min(Math.max(0, waitMs), 30_000);
        while (version <= after) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                break;
            }
            wait(left);
        }
        return document;
    }
}
