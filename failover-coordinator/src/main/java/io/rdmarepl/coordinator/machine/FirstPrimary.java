package io.rdmarepl.coordinator.machine;

import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.config.MemberConfig;
import io.rdmarepl.coordinator.state.ClusterState;

/** The primary a coordinator starts with: the stored one, or {@code initial.primary} on the cluster's first start. */
final class FirstPrimary {
    private FirstPrimary() {
    }

    /**
     * @param stored what the store holds, null when it is empty
     * @throws IllegalArgumentException when there is none, or it is not a configured member
     */
    static MemberConfig of(CoordinatorConfig config, ClusterState stored, String storeDescription) {
        String name = stored != null ? stored.primary() : config.initialPrimary();
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("initial.primary: required on the first start (the state store "
                    + storeDescription + " is empty)");
        }
        return config.member(name).orElseThrow(
                () -> new IllegalArgumentException("the stored primary " + name + " is not in members"));
    }
}
