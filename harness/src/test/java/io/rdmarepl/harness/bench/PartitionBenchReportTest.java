package io.rdmarepl.harness.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.testsupport.history.Ack;
import io.rdmarepl.testsupport.history.PrimaryWindow;
import io.rdmarepl.trials.TrialResult;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What {@code rdmarepl bench partition} reports per scenario, and that each defect the end-to-end tests look for fails a
 * trial and is named: two primaries, a write acknowledged before the fault lost, a replica that differs, sync mode
 * losing anything, a failover where none may happen and none where one must, an old primary acknowledging after
 * PROMOTING.
 */
class PartitionBenchReportTest {

    @Test
    void shouldSumTheTrialsOfAScenarioAndSpreadTheSelfFence() {
        PartitionBenchReport.Scenario cut = new PartitionBenchReport.Scenario(PartitionScenario.PRIMARY_CUT_OFF, "async",
                List.of(trial(1, failover(2300, Set.of(1L, 2L, 3L))), trial(2, failover(2100, Set.of(4L))),
                        trial(3, failover(2200, Set.of()))));
        PartitionBenchReport report = new PartitionBenchReport(3, List.of(cut));

        assertThat(report.pass()).as(report.table()).isTrue();
        Map<String, Object> scenario = scenario(report, 0);
        assertThat(scenario).containsEntry("scenario", 1).containsEntry("mode", "async").containsEntry("trials", 3)
                .containsEntry("lost_acknowledged", 4).containsEntry("lost_before_fault", 0).containsEntry("overlapping_primaries", 0)
                .containsEntry("failovers", 3L).containsEntry("healed", true).containsEntry("pass", true);
        assertThat(scenario.get("self_fence_ms")).isEqualTo(Map.of("min", 2100L, "median", 2200L, "max", 2300L));
        assertThat(report.table()).contains("2100/2200/2300").endsWith("PASS\n");
    }

    @Test
    void shouldReportASelfFenceBeforeTheCutInSyncMode() {
        // strict sync: the cut-off primary's commits wait for its lost standby, its last acknowledgement precedes the cut
        PartitionBenchReport.Scenario cut = new PartitionBenchReport.Scenario(PartitionScenario.PRIMARY_CUT_OFF, "sync",
                List.of(trial(1, failover(-3, Set.of())), trial(2, failover(-1, Set.of()))));
        PartitionBenchReport report = new PartitionBenchReport(2, List.of(cut));

        assertThat(report.pass()).as(report.table()).isTrue();
        assertThat(scenario(report, 0).get("self_fence_ms")).isEqualTo(Map.of("min", -3L, "median", -3L, "max", -1L));
        assertThat(scenario(report, 0).get("fenced_before_promoting_ms")).isEqualTo(Map.of("min", 4400L, "median", 4400L, "max", 4400L));
    }

    @Test
    void shouldFailAndNameEachDefect() {
        assertFails(PartitionScenario.PRIMARY_CUT_OFF, "async", result(true, List.of("a [..] overlaps b [..]"), Set.of(), Set.of(), 10, true),
                "TWO PRIMARIES: [a [..] overlaps b [..]]");
        assertFails(PartitionScenario.PRIMARY_CUT_OFF, "async", result(true, List.of(), Set.of(7L), Set.of(7L), 10, true),
                "lost 1 write(s) acknowledged before the fault");
        assertFails(PartitionScenario.PRIMARY_CUT_OFF, "async", result(true, List.of(), Set.of(), Set.of(), 10, false),
                "not healed");
        assertFails(PartitionScenario.PRIMARY_CUT_OFF, "sync", result(true, List.of(), Set.of(8L, 9L), Set.of(), 10, true),
                "SYNC MODE lost 2 acknowledged write(s)");
        assertFails(PartitionScenario.PRIMARY_CUT_OFF, "async", result(true, List.of(), Set.of(), Set.of(), -40, true),
                "the old primary acknowledged writes 40 ms after PROMOTING");
        assertFails(PartitionScenario.PRIMARY_CUT_OFF, "async", result(false, List.of(), Set.of(), Set.of(), 0, true), "no failover");
        assertFails(PartitionScenario.COORDINATOR_CUT_FROM_PRIMARY, "async", result(true, List.of(), Set.of(), Set.of(), 10, true),
                "failed over");
        assertFails(PartitionScenario.FLAKY_LINK, "async", result(false, List.of(), Set.of(5L), Set.of(), 0, true),
                "lost 1 acknowledged write(s)");
    }

    @Test
    void shouldFailATrialThatCouldNotFinish() {
        PartitionBenchReport.Scenario scenario = new PartitionBenchReport.Scenario(PartitionScenario.COORDINATOR_CUT_FROM_PRIMARY, "sync",
                List.of(new PartitionBenchReport.Trial(1, null, Map.of(), "AssertionError: HEALTHY after 90 seconds", 95)));
        PartitionBenchReport report = new PartitionBenchReport(1, List.of(scenario));

        assertThat(report.pass()).isFalse();
        assertThat(scenario(report, 0)).containsEntry("trials", 1).containsEntry("completed", 0).containsEntry("healed", false)
                .containsEntry("pass", false);
        assertThat(report.table()).contains("FAILED: scenario 2 sync trial 1: AssertionError: HEALTHY after 90 seconds").endsWith("FAIL\n");
    }

    private static void assertFails(PartitionScenario scenario, String mode, TrialResult result, String named) {
        PartitionBenchReport.Scenario one = new PartitionBenchReport.Scenario(scenario, mode, List.of(trial(1, result)));
        PartitionBenchReport report = new PartitionBenchReport(1, List.of(one));
        assertThat(report.pass()).as("%s %s: %s", scenario, mode, named).isFalse();
        assertThat(PartitionBenchReport.failure(one, one.trials().get(0))).contains(named);
        assertThat(report.table()).contains(named).endsWith("FAIL\n");
    }

    private static PartitionBenchReport.Trial trial(int index, TrialResult result) {
        return new PartitionBenchReport.Trial(index, result, Map.of(), null, 40);
    }

    private static TrialResult failover(long selfFenceMs, Set<Long> lost) {
        return new TrialResult(1, 1, "a", "b", windows(), List.of(), lost, Set.of(), selfFenceMs, 4400, true, "");
    }

    private static TrialResult result(boolean failedOver, List<String> overlapping, Set<Long> lost, Set<Long> lostBeforeFault,
                                      long fencedBeforePromotingMs, boolean healed) {
        return new TrialResult(1, 1, "a", failedOver ? "b" : "a", windows(), overlapping, lost, lostBeforeFault, failedOver ? 2100 : -1,
                fencedBeforePromotingMs, healed, "");
    }

    private static List<PrimaryWindow> windows() {
        Ack a = new Ack(1, "a", 0, 1_000_000, 1);
        Ack b = new Ack(2, "b", 9_000_000_000L, 9_001_000_000L, 9001);
        return List.of(new PrimaryWindow("a", a, a, 1), new PrimaryWindow("b", b, b, 1));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> scenario(PartitionBenchReport report, int index) {
        return ((List<Map<String, Object>>) report.toMap().get("scenarios")).get(index);
    }
}
