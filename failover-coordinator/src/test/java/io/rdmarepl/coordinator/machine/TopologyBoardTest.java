package io.rdmarepl.coordinator.machine;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.coordinator.state.ClusterState;
import io.rdmarepl.coordinator.state.HistoryEntry;
import io.rdmarepl.coordinator.state.Member;
import io.rdmarepl.coordinator.state.Phase;
import io.rdmarepl.coordinator.state.Role;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** What the topology document says about its coordinator: whether it leads, and how old its knowledge is. */
class TopologyBoardTest {
    private final AtomicBoolean leading = new AtomicBoolean();
    private final AtomicLong nowNs = new AtomicLong(1_000_000_000L);
    private final TopologyBoard board = new TopologyBoard(leading::get, nowNs::get);

    @Test
    void aLeaderIsNeverStaleItWritesEveryChangeItself() throws Exception {
        leading.set(true);
        board.publish(state(), 7, url -> url);
        elapseMs(60_000);

        Map<String, Object> answer = board.await(-1, 0);

        assertThat(answer).containsEntry("leader", true).containsEntry("age_ms", 0L).containsEntry("version", 7L);
    }

    @Test
    void aFollowerAgesFromItsLastReadOfTheStore() throws Exception {
        board.publish(state(), 7, url -> url);
        board.confirm(nowNs.get());
        elapseMs(2_500);

        assertThat(board.await(-1, 0)).containsEntry("leader", false).containsEntry("age_ms", 2_500L);

        board.confirm(nowNs.get());
        assertThat(board.await(-1, 0)).containsEntry("age_ms", 0L);
    }

    @Test
    void aLeaderThatLostItsStoreAgesFromItsLastConfirmation() throws Exception {
        leading.set(true);
        board.publish(state(), 7, url -> url);
        board.confirm(nowNs.get());
        leading.set(false); // ZooKeeper SUSPENDED: the latch no longer counts
        elapseMs(3_000);

        assertThat(board.await(-1, 0)).containsEntry("leader", false).containsEntry("age_ms", 3_000L);
    }

    @Test
    void aFollowerAgesFromWhenWhatItReadWasKnownNotFromTheRead() throws Exception {
        board.publish(state(), 7, url -> url);
        long quorumAnsweredNs = nowNs.get();
        elapseMs(2_400);
        board.confirm(quorumAnsweredNs); // read just now, from a ZooKeeper server the quorum last answered 2.4 s ago

        assertThat(board.await(-1, 0)).containsEntry("leader", false).containsEntry("age_ms", 2_400L);

        board.confirm(quorumAnsweredNs - TimeUnit.SECONDS.toNanos(1));
        assertThat(board.await(-1, 0)).as("an older confirmation moves nothing back").containsEntry("age_ms", 2_400L);
    }

    @Test
    void aHeldPollAnswersAtOnceWhenTheDocumentIsOlderThanTheClientAccepts() throws Exception {
        board.publish(state(), 7, url -> url);
        board.confirm(nowNs.get());
        elapseMs(2_001);

        long startNs = System.nanoTime();
        Map<String, Object> answer = board.await(7, 20_000, 2_000);

        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs)).as("not held for the 20 s asked").isLessThan(5_000);
        assertThat(answer).containsEntry("version", 7L).containsEntry("age_ms", 2_001L);
    }

    @Test
    void aFreshDocumentIsHeldForTheWholeWait() throws Exception {
        leading.set(true);
        board.publish(state(), 7, url -> url);

        long startNs = System.nanoTime();
        board.await(7, 300, 2_000);

        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs)).isGreaterThanOrEqualTo(290);
    }

    private void elapseMs(long ms) {
        nowNs.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
    }

    private static ClusterState state() {
        return new ClusterState("main", 3, "pg1", Phase.HEALTHY,
                List.of(new Member("pg1", "jdbc:postgresql://10.0.0.1:5432/app", Role.PRIMARY),
                        new Member("pg2", "jdbc:postgresql://10.0.0.2:5432/app", Role.STANDBY)),
                List.of(new HistoryEntry(1_767_225_600_000L, "BOOTSTRAP", "HEALTHY", "cluster created", 3)));
    }
}
