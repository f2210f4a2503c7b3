package io.rdmarepl.coordinator.store;

import io.rdmarepl.coordinator.state.ClusterState;
import io.rdmarepl.coordinator.state.HistoryEntry;
import io.rdmarepl.coordinator.state.Member;
import io.rdmarepl.coordinator.state.Phase;
import io.rdmarepl.coordinator.state.Role;
import java.util.List;

/** Cluster states for store tests: three members, pg1 the first primary. */
final class States {
    static final long CREATED_AT_MS = 1_767_225_600_000L;

    private States() {
    }

    static ClusterState initial(String cluster) {
        return new ClusterState(cluster, 1, "pg1", Phase.HEALTHY,
                List.of(new Member("pg1", "jdbc:postgresql://10.0.0.1:5432/app", Role.PRIMARY),
                        new Member("pg2", "jdbc:postgresql://10.0.0.2:5432/app", Role.STANDBY),
                        new Member("pg3", "jdbc:postgresql://10.0.0.3:5432/app", Role.STANDBY)),
                List.of(new HistoryEntry(CREATED_AT_MS, "BOOTSTRAP", "HEALTHY", "cluster created with primary pg1", 1)));
    }

    /** What a coordinator decides after reading {@code state}: promote the other of pg1 and pg2, epoch + 1. */
    static ClusterState promotionBy(String coordinator, ClusterState state) {
        String next = state.primary().equals("pg1") ? "pg2" : "pg1";
        return state.promote(next, Phase.HEALTHY, coordinator + " promoted " + next + " at epoch " + (state.epoch() + 1),
                System.currentTimeMillis());
    }

    /** History entries recording a change to {@code epoch}; a promotion that landed twice would show two. */
    static long promotionsTo(ClusterState state, int epoch) {
        return state.history().stream().filter(h -> h.epoch() == epoch && h.reason().contains("promoted")).count();
    }
}
