package io.rdmarepl.coordinator.store;

import static io.rdmarepl.coordinator.store.StateStore.NOTHING_STORED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.coordinator.state.ClusterState;
import io.rdmarepl.coordinator.state.HistoryEntry;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.ZooKeeperTestServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/** Two coordinators on one ZooKeeper: leadership, compare-and-set races, a leader dying mid-failover. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class ZooKeeperStateStoreIT {
    private static final Duration LEADERSHIP_DEADLINE = Duration.ofSeconds(10);

    private static TestingServer zooKeeper;
    private final List<ZooKeeperStateStore> stores = new ArrayList<>();
    private String cluster;

    @BeforeAll
    static void startZooKeeper() throws Exception {
        zooKeeper = ZooKeeperTestServers.server(); // a fresh temp directory
    }

    @AfterAll
    static void stopZooKeeper() throws Exception {
        zooKeeper.close();
    }

    @BeforeEach
    void ownCluster(TestInfo test) {
        // every test has its own /rdmarepl/<cluster> tree on the shared server
        cluster = test.getTestMethod().orElseThrow().getName();
    }

    @AfterEach
    void closeStores() {
        stores.forEach(ZooKeeperStateStore::close);
    }

    @Test
    void shouldElectExactlyOneOfTwoCoordinators() {
        ZooKeeperStateStore a = open("coord-a");
        ZooKeeperStateStore b = open("coord-b");

        Await.until("one coordinator leads", LEADERSHIP_DEADLINE, () -> a.isLeader() || b.isLeader());

        assertThat(a.isLeader() ^ b.isLeader()).as("exactly one of %s, %s", a.describe(), b.describe()).isTrue();
        ZooKeeperStateStore follower = a.isLeader() ? b : a;
        assertThat(follower.describe()).endsWith("/rdmarepl/" + cluster + " as " + name(follower) + " (follower)");
    }

    @Test
    void shouldReadNothingStoredBeforeTheFirstWriteAndTheStateAfterIt() {
        ZooKeeperStateStore a = open("coord-a");
        ZooKeeperStateStore b = open("coord-b");
        assertThat(b.read()).isEqualTo(new Versioned<ClusterState>(null, NOTHING_STORED));

        assertThat(a.compareAndSet(NOTHING_STORED, States.initial(cluster))).isZero();

        assertThat(b.read()).isEqualTo(new Versioned<>(States.initial(cluster), 0));
    }

    @Test
    void shouldLetExactlyOneOfTwoWritesFromTheSameReadWin() throws Exception {
        ZooKeeperStateStore a = open("coord-a");
        ZooKeeperStateStore b = open("coord-b");
        ExecutorService writers = Executors.newFixedThreadPool(2);
        try {
            List<Long> created = race(writers, a, b, NOTHING_STORED, store -> States.initial(cluster));
            assertThat(created).containsExactlyInAnyOrder(0L, NOTHING_STORED);

            int rounds = 10;
            for (int round = 0; round < rounds; round++) {
                Versioned<ClusterState> seen = a.read();
                List<Long> results = race(writers, a, b, seen.version(), store -> States.promotionBy(name(store), seen.value()));
                assertThat(results).as("round %d from version %d", round, seen.version())
                        .containsExactlyInAnyOrder(seen.version() + 1, NOTHING_STORED);
            }

            Versioned<ClusterState> last = b.read();
            assertThat(last.version()).isEqualTo(rounds);
            assertThat(last.value().epoch()).isEqualTo(1 + rounds);
        } finally {
            writers.shutdownNow();
        }
    }

    @Test
    void shouldRaiseTheEpochWithEveryPromotionByAlternatingWriters() {
        ZooKeeperStateStore a = open("coord-a");
        ZooKeeperStateStore b = open("coord-b");
        a.compareAndSet(NOTHING_STORED, States.initial(cluster));

        int lastEpoch = 1;
        for (int i = 0; i < 20; i++) {
            ZooKeeperStateStore writer = i % 2 == 0 ? a : b;
            ZooKeeperStateStore other = writer == a ? b : a;
            Versioned<ClusterState> seen = writer.read();

            assertThat(writer.compareAndSet(seen.version(), States.promotionBy(name(writer), seen.value())))
                    .isEqualTo(seen.version() + 1);
            assertThat(other.compareAndSet(seen.version(), States.promotionBy(name(other), seen.value())))
                    .as("the other writer, from the same read").isEqualTo(NOTHING_STORED);

            int epoch = other.read().value().epoch();
            assertThat(epoch).isEqualTo(lastEpoch + 1);
            lastEpoch = epoch;
        }
        List<Integer> epochs = a.read().value().history().stream().map(HistoryEntry::epoch).toList();
        assertThat(epochs).hasSize(21).doesNotHaveDuplicates().isSorted();
    }

    @Test
    void shouldHandOverWhenTheLeaderDiesBetweenReadAndWrite() {
        ZooKeeperStateStore a = open("coord-a");
        Await.until("coord-a leads", LEADERSHIP_DEADLINE, a::isLeader);
        ZooKeeperStateStore b = open("coord-b");
        a.compareAndSet(NOTHING_STORED, States.initial(cluster));
        Versioned<ClusterState> seenByA = a.read();
        ClusterState decidedByA = States.promotionBy("coord-a", seenByA.value());

        a.close(); // dies mid-failover: read done, write not

        Await.until("coord-b leads after coord-a died", LEADERSHIP_DEADLINE, b::isLeader);
        Versioned<ClusterState> seenByB = b.read();
        assertThat(seenByB).as("coord-a's promotion never landed").isEqualTo(seenByA);
        assertThat(b.compareAndSet(seenByB.version(), States.promotionBy("coord-b", seenByB.value()))).isEqualTo(1);
        assertThatThrownBy(() -> a.compareAndSet(seenByA.version(), decidedByA))
                .isInstanceOf(StateStoreException.class)
                .hasMessageContaining("closed");

        ClusterState last = b.read().value();
        assertThat(last.epoch()).isEqualTo(2);
        assertThat(States.promotionsTo(last, 2)).isEqualTo(1);
        assertThat(last.history().get(last.history().size() - 1).reason()).startsWith("coord-b promoted");
    }

    @Test
    void shouldRefuseTheLateWriteOfALeaderWhoseSessionExpiredMidFailover() throws Exception {
        ZooKeeperStateStore a = open("coord-a");
        Await.until("coord-a leads", LEADERSHIP_DEADLINE, a::isLeader);
        ZooKeeperStateStore b = open("coord-b");
        a.compareAndSet(NOTHING_STORED, States.initial(cluster));
        Versioned<ClusterState> seenByA = a.read();
        ClusterState decidedByA = States.promotionBy("coord-a", seenByA.value());

        Sessions.expire(a, zooKeeper.getConnectString()); // partitioned for longer than its session

        Await.until("coord-a stops leading", LEADERSHIP_DEADLINE, () -> !a.isLeader());
        Await.until("coord-b leads", LEADERSHIP_DEADLINE, b::isLeader);
        Versioned<ClusterState> seenByB = b.read();
        assertThat(b.compareAndSet(seenByB.version(), States.promotionBy("coord-b", seenByB.value()))).isEqualTo(1);

        // coord-a comes back with a new session and finishes what it had decided: the version moved on
        assertThat(a.compareAndSet(seenByA.version(), decidedByA)).isEqualTo(NOTHING_STORED);

        ClusterState last = a.read().value();
        assertThat(last.epoch()).isEqualTo(2);
        assertThat(States.promotionsTo(last, 2)).isEqualTo(1);
        assertThat(a.isLeader()).as(a.describe()).isFalse();
        assertThat(b.isLeader()).as(b.describe()).isTrue();
    }

    @Test
    void shouldRefuseAVersionNoZnodeCanHave() {
        ZooKeeperStateStore a = open("coord-a");

        assertThatThrownBy(() -> a.compareAndSet(-2, States.initial(cluster)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected version -2 of znode /rdmarepl/" + cluster + "/state");
    }

    @Test
    void shouldNameTheZnodeOfACorruptState() throws Exception {
        ZooKeeperStateStore a = open("coord-a");
        a.curator().create().creatingParentsIfNeeded().forPath("/rdmarepl/" + cluster + "/state", "{\"cluster\":".getBytes());

        assertThatThrownBy(a::read)
                .isInstanceOf(StateStoreException.class)
                .hasMessageStartingWith("znode /rdmarepl/" + cluster + "/state at ZooKeeper " + zooKeeper.getConnectString()
                        + " is corrupt: ");
    }

    private ZooKeeperStateStore open(String coordinator) {
        ZooKeeperStateStore store = ZooKeeperStateStore.open(
                ZooKeeperStoreSettings.of(zooKeeper.getConnectString(), cluster, coordinator).withTimeouts(4000, 2000));
        stores.add(store);
        return store;
    }

    private static String name(ZooKeeperStateStore store) {
        return store.settings().coordinatorName();
    }

    /** Both stores write from the same expected version at the same moment. */
    private static List<Long> race(ExecutorService writers, ZooKeeperStateStore a, ZooKeeperStateStore b, long expectedVersion,
                                   Function<ZooKeeperStateStore, ClusterState> decision) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Long>> results = new ArrayList<>();
        for (ZooKeeperStateStore store : List.of(a, b)) {
            ClusterState next = decision.apply(store);
            results.add(writers.submit(() -> {
                go.await();
                return store.compareAndSet(expectedVersion, next);
            }));
        }
        go.countDown();
        List<Long> versions = new ArrayList<>();
        for (Future<Long> result : results) {
            versions.add(result.get(10, TimeUnit.SECONDS));
        }
        return versions;
    }
}
