package io.rdmarepl.coordinator;

import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.store.FileStateStore;
import io.rdmarepl.coordinator.store.StateStore;
import io.rdmarepl.coordinator.store.ZooKeeperStateStore;
import io.rdmarepl.coordinator.store.ZooKeeperStoreSettings;

/** Opens the state store {@code state.store} names. */
public final class StateStores {
    private StateStores() {
    }

    public static StateStore open(CoordinatorConfig config) {
        return switch (config.stateStore()) {
            case "zookeeper" -> ZooKeeperStateStore.open(new ZooKeeperStoreSettings(config.zookeeperConnect(), config.clusterName(),
                    config.coordinatorName(), ZooKeeperStoreSettings.DEFAULT_SESSION_TIMEOUT_MS,
                    ZooKeeperStoreSettings.DEFAULT_CONNECTION_TIMEOUT_MS));
            default -> FileStateStore.open(config.stateFile());
        };
    }
}
