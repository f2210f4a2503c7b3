package io.rdmarepl.coordinator.store;

import static io.rdmarepl.coordinator.store.StateStore.NOTHING_STORED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.ZooKeeperTestServers;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** ZooKeeper going away: a leader stops acting at once, errors name the servers, the store recovers. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class ZooKeeperStateStoreOutageIT {
    private static final int SESSION_TIMEOUT_MS = 4000;
    private static final int CONNECTION_TIMEOUT_MS = 1000;

    @Test
    void shouldStopLeadingAsSoonAsTheConnectionIsSuspendedAndResumeAfterwards() throws Exception {
        try (TestingServer zooKeeper = ZooKeeperTestServers.server();
             ZooKeeperStateStore store = ZooKeeperStateStore.open(ZooKeeperStoreSettings.of(zooKeeper.getConnectString(), "main",
                     "coord-a").withTimeouts(SESSION_TIMEOUT_MS, CONNECTION_TIMEOUT_MS))) {
            Await.until("coord-a leads", Duration.ofSeconds(10), store::isLeader);
            store.compareAndSet(NOTHING_STORED, States.initial("main"));

            zooKeeper.stop();

            // well inside the session timeout: the leader must not keep acting until its session expires
            Await.until("coord-a stops leading once disconnected", Duration.ofMillis(SESSION_TIMEOUT_MS / 4), () -> !store.isLeader());
            assertThat(store.describe()).endsWith("(disconnected)");
            long startNs = System.nanoTime();
            assertThatThrownBy(store::read)
                    .isInstanceOf(StateStoreException.class)
                    .hasMessageStartingWith("cannot read znode /rdmarepl/main/state at ZooKeeper " + zooKeeper.getConnectString());
            // 2.5 to 4 s measured: a connection timeout waiting, one retrying, and the client's last reconnect attempt
            assertThat(Duration.ofNanos(System.nanoTime() - startNs)).as("a read fails instead of waiting for ZooKeeper")
                    .isLessThan(Duration.ofMillis(2L * CONNECTION_TIMEOUT_MS + SESSION_TIMEOUT_MS));

            zooKeeper.restart();

            Await.until("coord-a leads again after ZooKeeper is back", Duration.ofSeconds(10), store::isLeader);
            assertThat(store.read()).isEqualTo(new Versioned<>(States.initial("main"), 0));
            assertThat(store.compareAndSet(0, States.promotionBy("coord-a", States.initial("main")))).isEqualTo(1);
        }
    }

    @Test
    void shouldNameTheConnectStringWhenZooKeeperIsUnreachable() {
        String nobodyListens = "127.0.0.1:" + InstanceSpec.getRandomPort();

        assertThatThrownBy(() -> ZooKeeperStateStore.open(
                ZooKeeperStoreSettings.of(nobodyListens, "main", "coord-a").withTimeouts(SESSION_TIMEOUT_MS, 500)))
                .isInstanceOf(StateStoreException.class)
                .hasMessage("ZooKeeper at " + nobodyListens + " is unreachable: no connection within 500 ms (connection timeout)");
    }
}
