package io.rdmarepl.coordinator.store;

import static io.rdmarepl.coordinator.store.StateStore.NOTHING_STORED;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.coordinator.state.ClusterState;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.ZooKeeperTestServers;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A three-server ensemble keeps the store working when one server stops. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ZooKeeperStateStoreClusterIT {
    @Test
    void shouldKeepWorkingWhenTheServerOfTheLeaderStops() throws Exception {
        try (TestingCluster ensemble = ZooKeeperTestServers.cluster(3)) {
            ensemble.start();
            try (ZooKeeperStateStore a = open(ensemble, "coord-a")) {
                Await.until("coord-a leads", Duration.ofSeconds(10), a::isLeader);
                try (ZooKeeperStateStore b = open(ensemble, "coord-b")) {
                    a.compareAndSet(NOTHING_STORED, States.initial("main"));

                    InstanceSpec serverOfA = ensemble.findConnectionInstance(a.curator().getZookeeperClient().getZooKeeper());
                    ensemble.killServer(serverOfA);

                    Await.until("a coordinator leads on the two remaining servers", Duration.ofSeconds(15),
                            () -> a.isLeader() || b.isLeader());
                    ZooKeeperStateStore leader = a.isLeader() ? a : b;
                    ZooKeeperStateStore follower = leader == a ? b : a;
                    Versioned<ClusterState> seen = leader.read();
                    assertThat(seen.version()).isZero();
                    ClusterState promoted = States.promotionBy(leader.settings().coordinatorName(), seen.value());
                    assertThat(leader.compareAndSet(0, promoted)).isEqualTo(1);
                    // ZooKeeper reads are served by the client's own server and may lag the quorum briefly
                    Await.until("the follower reads version 1", Duration.ofSeconds(5),
                            () -> follower.read().equals(new Versioned<>(promoted, 1)));
                }
            }
        }
    }

    private static ZooKeeperStateStore open(TestingCluster ensemble, String coordinator) {
        return ZooKeeperStateStore.open(ZooKeeperStoreSettings.of(ensemble.getConnectString(), "main", coordinator));
    }
}
