package io.rdmarepl.harness.bench.lag.catchup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TableFiguresTest {

    @Test
    void shouldFindNothingWhenEveryDeltaIsInEveryTableAndEveryCommitInTheHistory() {
        assertThat(figures(1000, 42, 42, 42, 42, 1).inconsistencies(1000, 1, false)).isEmpty();
    }

    @Test
    void shouldNameAHistoryRowTheClientsCommittedButThePrimaryLacks() {
        assertThat(figures(999, 42, 42, 42, 42, 1).inconsistencies(1000, 1, false))
                .containsExactly("pgbench_history holds 999 rows, the clients committed 1000 transactions");
    }

    @Test
    void shouldNameEveryBalanceThatDoesNotAddUpToTheDeltas() {
        assertThat(figures(1000, 41, 42, 43, 42, 1).inconsistencies(1000, 1, false)).containsExactly(
                "pgbench_accounts sum(abalance) is 41, the history's deltas add up to 42",
                "pgbench_branches sum(bbalance) is 43, the history's deltas add up to 42");
    }

    @Test
    void shouldExpectTellersAndBranchesUntouchedBySimpleUpdate() {
        assertThat(figures(1000, 42, 0, 0, 42, 1).inconsistencies(1000, 1, true)).isEmpty();
        assertThat(figures(1000, 42, 42, 0, 42, 1).inconsistencies(1000, 1, true)).containsExactly(
                "pgbench_tellers sum(tbalance) is 42, simple-update leaves it at 0");
    }

    @Test
    void shouldNameAMissingMarker() {
        assertThat(figures(1000, 42, 42, 42, 42, 0).inconsistencies(1000, 1, false)).containsExactly("catchup_marker holds 0 rows, 1 committed");
    }

    private static TableFigures figures(long history, long accounts, long tellers, long branches, long deltas, long markers) {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("pgbench_accounts count", 100_000L);
        m.put("pgbench_accounts sum(abalance)", accounts);
        m.put("pgbench_tellers count", 10L);
        m.put("pgbench_tellers sum(tbalance)", tellers);
        m.put("pgbench_branches count", 1L);
        m.put("pgbench_branches sum(bbalance)", branches);
        m.put("pgbench_history count", history);
        m.put("pgbench_history sum(delta)", deltas);
        m.put("catchup_marker count", markers);
        m.put("catchup_marker sum(round)", markers);
        return new TableFigures(m);
    }
}
