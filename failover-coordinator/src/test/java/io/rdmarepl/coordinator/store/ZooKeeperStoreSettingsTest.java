package io.rdmarepl.coordinator.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ZooKeeperStoreSettingsTest {
    @Test
    void shouldDefaultTheTimeoutsAndPlaceTheZnodesUnderTheCluster() {
        ZooKeeperStoreSettings settings = ZooKeeperStoreSettings.of("zk1:2181,zk2:2181", "main", "coord-a");

        assertThat(settings.sessionTimeoutMs()).isEqualTo(5000);
        assertThat(settings.connectionTimeoutMs()).isEqualTo(3000);
        assertThat(settings.statePath()).isEqualTo("/rdmarepl/main/state");
        assertThat(settings.leaderPath()).isEqualTo("/rdmarepl/main/leader");
    }

    @Test
    void shouldReportEveryProblemInOneError() {
        assertThatThrownBy(() -> new ZooKeeperStoreSettings(" ", "a/b", "", 0, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid ZooKeeper state store settings: connectString is empty, expected host:port[,host:port...]; "
                        + "cluster 'a/b' must be a non-empty name without '/'; coordinatorName is empty, expected e.g. the host name; "
                        + "sessionTimeoutMs 0 must be > 0; connectionTimeoutMs -1 must be > 0");
    }

    @Test
    void shouldRejectAClusterNameThatIsNoZnodeName() {
        assertThatThrownBy(() -> ZooKeeperStoreSettings.of("zk1:2181", "..", "coord-a"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cluster '..' is not a valid znode name");
    }
}
