package io.rdmarepl.coordinator.detect;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Only both signals together fail a primary over; either alone is a stall and the sentence says so. */
class DetectionTest {
    private final Detection detection = new Detection(Duration.ofMillis(20), 2, Duration.ofMillis(2000));

    @Test
    void failedProbesAndSilentStandbysFailThePrimary() {
        Verdict verdict = detection.judge("pga", probe(3, 21), List.of(standby("pgb", 35)), null);
        assertThat(verdict.primaryFailed()).isTrue();
        assertThat(verdict.sentence()).isEqualTo("primary pga failed 3 probe(s) in 21 ms (Connection refused) and no standby "
                + "received a heartbeat for 35 ms");
        assertThat(verdict.failedForMs()).isEqualTo(21);
    }

    @Test
    void aStandbyStillHearingHeartbeatsKeepsThePrimary() {
        Verdict verdict = detection.judge("pga", probe(5, 100), List.of(standby("pgb", 40), standby("pgc", 3)), null);
        assertThat(verdict.primaryFailed()).isFalse();
        assertThat(verdict.sentence()).contains("but pgc received a heartbeat 3 ms ago: not failing over");
    }

    @Test
    void aHeartbeatGapLongAfterTheProbeBeganFailingIsAPrimaryCutOffFromTheCoordinator() {
        Verdict verdict = detection.judge("pga", probe(12, 1189), List.of(standby("pgb", 21)), null);
        assertThat(verdict.primaryFailed()).isFalse();
        assertThat(verdict.sentence()).contains("but pgb received a heartbeat 21 ms ago, long after the probe began failing");
        assertThat(detection.judge("pga", probe(12, 1189), List.of(standby("pgb", 1170)), null).primaryFailed())
                .as("silent since about when the probe began failing: dead").isTrue();
    }

    @Test
    void aStandbySilentForAWholeLeaseFailsAPrimaryWhoseProbeFailedLongBefore() {
        // cut off from the coordinator first, from its standby 8 s later: the failures are always 8 s older than the silence
        assertThat(detection.judge("pga", probe(40, 9_999), List.of(standby("pgb", 1_999)), null).primaryFailed())
                .as("a silence shorter than the lease, long after the probe began failing: maybe a hiccup").isFalse();
        Verdict verdict = detection.judge("pga", probe(40, 10_000), List.of(standby("pgb", 2_000)), null);
        assertThat(verdict.primaryFailed()).as("silent for a whole lease: no hiccup").isTrue();
        assertThat(verdict.sentence()).isEqualTo("primary pga failed 40 probe(s) in 10000 ms (Connection refused) and no standby "
                + "received a heartbeat for 2000 ms");
        assertThat(new Detection(Duration.ofMillis(20), 2, Duration.ZERO).judge("pga", probe(40, 60_000),
                List.of(standby("pgb", 50_000)), null).primaryFailed()).as("without a lease, only a silence covering the failures")
                .isFalse();
    }

    @Test
    void aPrimaryThatAnsweredLongAfterItsStandbysFellSilentIsCutOffFromThemAndNeedsItsProbeToFailForALease() {
        // scenario 4 on a loaded host: the standby cut off 5.4 s before, then two probes over their 25 ms timeout
        Verdict verdict = detection.judge("pga", probe(2, 176, 226), List.of(standby("pgb", 5_623)), null);
        assertThat(verdict.primaryFailed()).as(verdict.sentence()).isFalse();
        assertThat(verdict.sentence()).isEqualTo("primary pga failed 2 probe(s) in 176 ms (Connection refused) but answered one"
                + " 5397 ms after the standbys last received a heartbeat: they are cut off from it, and the probe alone fails it"
                + " only once failing for the lease (2000 ms): not failing over");
        assertThat(detection.judge("pga", probe(40, 1_999, 2_049), List.of(standby("pgb", 7_500)), null).primaryFailed())
                .as("a probe failing for less than the lease").isFalse();
        assertThat(detection.judge("pga", probe(40, 2_000, 2_050), List.of(standby("pgb", 7_500)), null).primaryFailed())
                .as("a probe failing for a whole lease: dead, however the standbys fell silent").isTrue();
        assertThat(new Detection(Duration.ofMillis(20), 2, Duration.ZERO).judge("pga", probe(40, 60_000, 60_050),
                List.of(standby("pgb", 70_000)), null).primaryFailed()).as("without a lease: never on the probe alone").isFalse();
    }

    @Test
    void aDeadPrimarysLastAnswerAndLastHeartbeatAreAHiccupApart() {
        assertThat(detection.judge("pga", probe(2, 30, 40 + Detection.HICCUP_MS), List.of(standby("pgb", 40 + 2 * Detection.HICCUP_MS)),
                null).primaryFailed()).as("heartbeats lagging the answers by a hiccup").isTrue();
        assertThat(detection.judge("pga", probe(2, 30, Long.MAX_VALUE), List.of(standby("pgb", 60_000)), null).primaryFailed())
                .as("never answered since the probe began (a coordinator started after the primary died)").isTrue();
    }

    @Test
    void silentStandbysAloneAreAStall() {
        Verdict verdict = detection.judge("pga", probe(0, 0), List.of(standby("pgb", 500)), null);
        assertThat(verdict.primaryFailed()).isFalse();
        assertThat(verdict.sentence()).isEqualTo("no standby received a heartbeat for 500 ms but primary pga answers its probe: "
                + "not failing over");
    }

    @Test
    void oneFailedProbeIsBelowTheThreshold() {
        assertThat(detection.judge("pga", probe(1, 12), List.of(standby("pgb", 500)), null).primaryFailed()).isFalse();
    }

    @Test
    void unreachableAppliersCountAsSilent() {
        Verdict verdict = detection.judge("pga", probe(2, 15), List.of(StandbyView.unknown("pgb", "connection refused")), null);
        assertThat(verdict.primaryFailed()).isTrue();
        assertThat(verdict.sentence()).endsWith("and no standby reports heartbeats");
    }

    @Test
    void aPostmasterSeenToExitNeedsNoSilenceAndOneFailedProbe() {
        String exit = "process 4711 exited (state Z)";
        Verdict verdict = detection.judge("pga", probe(1, 9), List.of(standby("pgb", 4)), exit);
        assertThat(verdict.primaryFailed()).isTrue();
        assertThat(verdict.sentence()).isEqualTo("primary pga failed 1 probe(s) in 9 ms (Connection refused) and its shipper "
                + "saw its postmaster exit (process 4711 exited (state Z))");
        assertThat(verdict.failedForMs()).isEqualTo(9);
        assertThat(detection.judge("pga", probe(2, 9), List.of(standby("pgb", 4)), exit).primaryFailed()).isTrue();
        assertThat(detection.judge("pga", probe(1, 9), List.of(standby("pgb", 4)), null).primaryFailed())
                .as("one failed probe without the exit is below the threshold").isFalse();
        assertThat(detection.judge("pga", probe(0, 0), List.of(standby("pgb", 4)), exit).primaryFailed())
                .as("a primary answering its probe (restarted already) is not failed").isFalse();
        assertThat(detection.judge("pga", probe(2, 9), List.of(standby("pgb", 4)), null).primaryFailed())
                .as("without the exit, heartbeats 4 ms old keep the primary").isFalse();
    }

    private static ProbeView probe(int failures, long failingForMs) {
        return probe(failures, failingForMs, failingForMs);
    }

    private static ProbeView probe(int failures, long failingForMs, long sinceSuccessMs) {
        return new ProbeView("jdbc:postgresql://127.0.0.1:5432/postgres", failures, failures == 0 ? null : "Connection refused",
                failingForMs, sinceSuccessMs, "0/16B3748");
    }

    static StandbyView standby(String name, long heartbeatAgeMs) {
        return new StandbyView(name, true, "streaming", "0/16B3748", "0/16B3748", heartbeatAgeMs, 0, 0, 1, null);
    }
}
