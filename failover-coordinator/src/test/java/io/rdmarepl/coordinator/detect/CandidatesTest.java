package io.rdmarepl.coordinator.detect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The most advanced standby within max.lag.bytes wins; the others are told why not. */
class CandidatesTest {
    private final Candidates candidates = new Candidates(1000);

    @Test
    void mostAdvancedQualifyingStandbyWins() {
        StandbyView behind = new StandbyView("pgb", true, "streaming", "0/1000", "0/1000", 5, 10, 0, 1, null);
        StandbyView ahead = new StandbyView("pgc", true, "streaming", "0/2000", "0/1000", 5, 10, 0, 1, null);
        StandbyView tooFar = new StandbyView("pgd", true, "streaming", "0/3000", "0/3000", 5, 5000, 0, 1, null);
        assertThat(candidates.best(List.of(behind, tooFar, ahead))).contains(ahead);
        assertThat(candidates.disqualification(tooFar)).contains("pgd is 5000 bytes behind its ring (max.lag.bytes 1000)");
    }

    @Test
    void aStandbyWhoseLastReadAnsweredWinsOverAMoreAdvancedOneWhoseReadFailed() {
        StandbyView answered = new StandbyView("pgb", true, "streaming", "0/1000", "0/1000", 5, 10, 0, 1, null);
        StandbyView silent = new StandbyView("pgc", true, "streaming", "0/2000", "0/1000", 5, 10, 0, 1,
                "last read failed: no answer within 200 ms");
        assertThat(candidates.best(List.of(silent, answered))).contains(answered);
        assertThat(candidates.best(List.of(silent))).as("still a candidate on its own").contains(silent);
    }

    @Test
    void noneQualifiesWhenAppliersAreUnreachableOrPromoted() {
        StandbyView gone = StandbyView.unknown("pgb", "connection refused");
        StandbyView promoted = new StandbyView("pgc", true, "promoted", "0/2000", "0/2000", 5, 0, 0, 2, null);
        assertThat(candidates.best(List.of(gone, promoted))).isEmpty();
        assertThat(candidates.disqualification(gone)).contains("pgb's applier is unreachable (connection refused)");
        assertThat(candidates.disqualification(promoted)).contains("pgc is promoted");
    }
}
