package io.rdmarepl.testsupport.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HistoryCheckTest {
    private static final long MS = 1_000_000;

    @Test
    void shouldFindNoOverlapWhenTheNewPrimaryBeginsAfterTheOldOneStopped() {
        List<Ack> acks = List.of(ack(1, "a", 0, 1), ack(2, "a", 2, 3), ack(3, "b", 2500, 2501), ack(4, "b", 2502, 2503));
        assertThat(HistoryCheck.overlappingPrimaries(acks)).isEmpty();
        List<PrimaryWindow> windows = HistoryCheck.windows(acks);
        assertThat(windows).extracting(PrimaryWindow::member).containsExactly("a", "b");
        assertThat(windows.get(0).gapMsBefore(windows.get(1))).isEqualTo(2498);
        assertThat(windows.get(1).acks()).isEqualTo(2);
    }

    @Test
    void shouldNameASecondWritablePrimaryPlantedInTheHistory() {
        List<Ack> acks = List.of(ack(1, "a", 0, 1), ack(2, "b", 10, 11), ack(3, "a", 15, 16), ack(4, "b", 20, 21));
        List<String> overlaps = HistoryCheck.overlappingPrimaries(acks);
        assertThat(overlaps).singleElement().asString()
                .startsWith("two primaries: b acknowledged write 2 while a still took writes (write 3 acknowledged 5 ms later, sent after it: certain)")
                .contains("a acknowledged 2 writes, b 2", "overlapping for 5 ms");
    }

    @Test
    void shouldCallAnOverlapWithinOneRoundTripPossibleNotCertain() {
        // a's write was sent before b's first returned and came back after it: both windows touch, order unknown
        List<Ack> acks = List.of(ack(1, "a", 0, 1), ack(2, "a", 5, 12), ack(3, "b", 9, 10));
        assertThat(HistoryCheck.overlappingPrimaries(acks)).singleElement().asString()
                .contains("write 2 acknowledged 2 ms later)").doesNotContain("certain");
    }

    @Test
    void shouldFindOverlapsBetweenEveryPairOfThreeMembers() {
        List<Ack> acks = List.of(ack(1, "a", 0, 1), ack(2, "b", 2, 3), ack(3, "c", 4, 5), ack(4, "a", 6, 7), ack(5, "b", 8, 9));
        assertThat(HistoryCheck.overlappingPrimaries(acks)).hasSize(3);
    }

    @Test
    void shouldNameEveryAcknowledgedWriteTheSurvivorLacks() {
        assertThat(HistoryCheck.lost(List.of(5L, 1L, 3L, 4L), Set.of(1L, 4L))).containsExactly(3L, 5L);
        assertThat(HistoryCheck.lost(List.of(1L), Set.of(1L, 2L))).isEmpty();
    }

    @Test
    void shouldKeepAcknowledgementsInCommitReturnOrder() {
        WriteHistory history = new WriteHistory();
        history.acknowledged(2, "a", 5, 9);
        history.acknowledged(1, "a", 1, 3);
        history.acknowledged(3, "b", 10, 11);
        assertThat(history.acks()).extracting(Ack::id).containsExactly(1L, 2L, 3L);
        assertThat(history.ids("a")).containsExactlyInAnyOrder(1L, 2L);
        assertThat(history.count("b")).isEqualTo(1);
    }

    @Test
    void shouldCountEachMembersAcknowledgementsFromSeveralThreads() throws InterruptedException {
        WriteHistory history = new WriteHistory();
        Thread[] writers = new Thread[4];
        for (int w = 0; w < writers.length; w++) {
            int first = w * 1_000;
            writers[w] = new Thread(() -> {
                for (int i = 0; i < 1_000; i++) {
                    history.acknowledged(first + i, i % 4 == 0 ? "b" : "a", i, i + 1);
                }
            });
            writers[w].start();
        }
        for (Thread writer : writers) {
            writer.join();
        }
        assertThat(history.count("a")).isEqualTo(3_000);
        assertThat(history.count("b")).isEqualTo(1_000);
        assertThat(history.count("c")).isZero();
        assertThat(history.acksBy("b")).hasSize(1_000);
    }

    private static Ack ack(long id, String member, long invokedMs, long acknowledgedMs) {
        return new Ack(id, member, invokedMs * MS, acknowledgedMs * MS, acknowledgedMs);
    }
}
