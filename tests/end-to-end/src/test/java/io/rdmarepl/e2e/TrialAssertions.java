package io.rdmarepl.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.trials.TrialResult;

/** What every partition trial must show, whatever the fault; each failure names the trial. */
final class TrialAssertions {
    private TrialAssertions() {
    }

    /** Never two primaries; nothing acknowledged before the fault lost; HEALTHY again with replica = primary. */
    static void assertSafeAndHealed(TrialResult result) {
        assertThat(result.overlappingPrimaries()).as("never two primaries: %s", result.summary()).isEmpty();
        assertThat(result.lostBeforeFault()).as("nothing acknowledged before the fault lost: %s", result.summary()).isEmpty();
        assertThat(result.healed()).as("HEALTHY again and replica = primary: %s", result.summary()).isTrue();
    }

    /** A fault that must change nothing: no failover, nothing acknowledged lost at all. */
    static void assertNothingChanged(TrialResult result) {
        assertSafeAndHealed(result);
        assertThat(result.failedOver()).as("no failover: %s", result.summary()).isFalse();
        assertThat(result.lostAcknowledged()).as("nothing acknowledged lost: %s", result.summary()).isEmpty();
    }

    /** The primary cut off from coordinator and standby: it refused writes before the standby was promoted. */
    static void assertFencedBeforePromotion(TrialResult result) {
        assertSafeAndHealed(result);
        assertThat(result.failedOver()).as("the standby was promoted: %s", result.summary()).isTrue();
        assertThat(result.fencedBeforePromotingMs()).as("the old primary refused writes before PROMOTING: %s", result.summary())
                .isPositive();
    }
}
