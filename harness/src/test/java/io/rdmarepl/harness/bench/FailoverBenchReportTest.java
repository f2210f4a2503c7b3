package io.rdmarepl.harness.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.harness.rig.FailoverOutcome;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What {@code rdmarepl bench failover} says about the mode, and that sync mode fails a trial that lost an acknowledged commit. */
class FailoverBenchReportTest {

    @Test
    void syncModeSaysSoAndPassesOnlyWithNothingLost() {
        FailoverBenchReport report = new FailoverBenchReport("shared", Map.of(), null, "sync", 0, 4, "on", "--no-reference",
                List.of(trial(outcome("sync", 0, "sync"))));

        assertThat(report.pass()).isTrue();
        assertThat(report.toMap()).containsEntry("mode", "sync").containsEntry("writers", 4).containsEntry("apply_synchronous_commit", "on")
                .containsEntry("lost_acknowledged", 0).containsEntry("acknowledged_by_old_primary", 120);
        @SuppressWarnings("unchecked")
        Map<String, Object> trial = (Map<String, Object>) ((List<?>) report.toMap().get("per_trial")).get(0);
        assertThat(trial).containsEntry("mode", "sync").containsKey("sync_at_kill").doesNotContainKey("lost_detail")
                .containsEntry("killed_at", "2025-12-03T22:13:20Z").containsEntry("killed_at_monotonic_ns", 36_037_693_100_381L);
        assertThat(report.table()).contains("SYNC mode").contains("ACKNOWLEDGED TRANSACTIONS LOST: 0 of 120").endsWith("PASS\n");
    }

    @Test
    void aSyncTrialThatLostAnAcknowledgedTransactionFails() {
        FailoverOutcome lost = outcome("sync", 1, "sync");
        assertThat(lost.pass()).isFalse();
        FailoverBenchReport report = new FailoverBenchReport("shared", Map.of(), null, "sync", 0, 4, "on", "--no-reference", List.of(trial(lost)));
        assertThat(report.pass()).isFalse();
        assertThat(report.table()).contains("ACKNOWLEDGED TRANSACTIONS LOST: 1 of 120").endsWith("FAIL\n");
    }

    @Test
    void aSyncTrialWhoseShipperWasNotInSyncAtTheKillProvesNothingAndFails() {
        assertThat(outcome("sync", 0, "degraded").pass()).isFalse();
    }

    @Test
    void asyncModeMayLoseWhatWasInFlight() {
        FailoverBenchReport report = new FailoverBenchReport("shared", Map.of(), null, "async", 200, 1, null, "--no-reference",
                List.of(trial(outcome("async", 2, null))));
        assertThat(report.pass()).isTrue();
        assertThat(report.toMap()).containsEntry("mode", "async").containsEntry("apply_synchronous_commit", "off");
        assertThat(report.table()).contains("async mode").contains("acknowledged transactions lost: 2 of 120");
    }

    private static FailoverBenchReport.Trial trial(FailoverOutcome outcome) {
        return new FailoverBenchReport.Trial(outcome, -1, -1, null);
    }

    private static FailoverOutcome outcome(String mode, int lost, String syncState) {
        Map<String, Object> syncAtKill = syncState == null ? Map.of() : Map.of("replication_mode", "sync", "sync_state", syncState,
                "primary_sync_state", "sync", "flush_within_replica", true);
        return new FailoverOutcome(true, "pgb", 2, 100, 110, 120, Map.of(), 230, 240, 400, 120, 10, lost, 0, 0, 0, 1, "promoted",
                List.of(Map.of("after_kill_ms", 110L, "to", "SUSPECT", "reason", "r"), Map.of("after_kill_ms", 230L, "to", "PROMOTED", "reason", "r")),
                0, lost == 0 ? Set.of() : Set.of(7L), Set.of(), mode, 4, syncAtKill, 4, 300, 5, 0,
                Map.of("count", 120, "median", 20_000L, "p99", 90_000L, "max", 95_000L), Map.of("replication_mode", mode),
                lost == 0 ? List.of() : List.of("id 7 acknowledged 3.0 ms before the kill after 20.0 ms"), 1_764_800_000_000L, 36_037_693_100_381L);
    }
}
