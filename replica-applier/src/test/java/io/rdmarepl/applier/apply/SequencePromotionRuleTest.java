package io.rdmarepl.applier.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.applier.schema.SequenceReadings;
import org.junit.jupiter.api.Test;

/** The promotion rule for shipped sequences: last shipped value + headroom + what the primary may have moved since. */
class SequencePromotionRuleTest {
    private static final long SECOND_US = 1_000_000L;
    private static final long NOW_US = 1_700_000_000L * SECOND_US;
    private static final SequencePromoter.Rule RULE = new SequencePromoter.Rule(10, SECOND_US, NOW_US);

    @Test
    void shouldAddOnlyTheHeadroomWithASingleReading() {
        assertThat(RULE.target(history(reading(500, NOW_US)), 1)).isEqualTo(510);
    }

    @Test
    void shouldAddTheRateTimesTheIntervalWhenTheLastReadingIsFresh() {
        // 1000 values in the second between the readings, the last one read 200 ms ago: one more interval's worth
        SequenceReadings readings = new SequenceReadings();
        readings.record("public", "s", 1000, true, NOW_US - 1_200_000);
        readings.record("public", "s", 2000, true, NOW_US - 200_000);
        assertThat(RULE.target(readings.snapshot().get(0), 1)).isEqualTo(2000 + 10 + 1000);
    }

    @Test
    void shouldAddTheRateTimesTheTimeSinceTheLastReadingWhenThatIsLonger() {
        // read every second until 20 s ago, then nothing: the primary may have gone on at that rate all along
        SequenceReadings readings = new SequenceReadings();
        readings.record("public", "s", 100, true, NOW_US - 21 * SECOND_US);
        readings.record("public", "s", 200, true, NOW_US - 20 * SECOND_US);
        assertThat(RULE.target(readings.snapshot().get(0), 1)).isEqualTo(200 + 10 + 100 * 20);
    }

    @Test
    void shouldAddTheWholeLastStepWhenItWasSpreadOverALongerGap() {
        // idle for 100 s, then 1000 values: a burst inside the last interval may go on at that pace
        SequenceReadings readings = new SequenceReadings();
        readings.record("public", "s", 0, true, NOW_US - 100 * SECOND_US);
        readings.record("public", "s", 1000, true, NOW_US);
        assertThat(RULE.target(readings.snapshot().get(0), 1)).isEqualTo(1000 + 10 + 1000);
    }

    @Test
    void shouldKeepTheRateWhenAnUnchangedStateIsShippedAgain() {
        // a restarted shipper sends every sequence once: the unchanged state moves the newest time, not the rate
        SequenceReadings readings = new SequenceReadings();
        readings.record("public", "s", 1000, true, NOW_US - 3 * SECOND_US);
        readings.record("public", "s", 2000, true, NOW_US - 2 * SECOND_US);
        readings.record("public", "s", 2000, true, NOW_US - 2 * SECOND_US); // the same group applied again
        readings.record("public", "s", 2000, true, NOW_US - 100_000);
        SequenceReadings.History history = readings.snapshot().get(0);
        assertThat(history.previous().lastValue()).isEqualTo(1000);
        assertThat(history.newestUs()).isEqualTo(NOW_US - 100_000);
        assertThat(RULE.target(history, 1)).isEqualTo(2000 + 10 + 1000);
    }

    @Test
    void shouldMoveADescendingSequenceDown() {
        SequenceReadings readings = new SequenceReadings();
        readings.record("public", "down", -100, true, NOW_US - 2 * SECOND_US);
        readings.record("public", "down", -300, true, NOW_US - SECOND_US);
        assertThat(RULE.target(readings.snapshot().get(0), -1)).isEqualTo(-300 - 10 - 200);
    }

    @Test
    void shouldAddNoRateForASequenceSetBackwards() {
        // ALTER SEQUENCE ... RESTART on the primary: nothing moved forward, only the headroom
        SequenceReadings readings = new SequenceReadings();
        readings.record("public", "s", 5000, true, NOW_US - 2 * SECOND_US);
        readings.record("public", "s", 1, false, NOW_US - SECOND_US);
        assertThat(RULE.target(readings.snapshot().get(0), 1)).isEqualTo(11);
    }

    @Test
    void shouldTakeTheStepWhenTheReadTimesGoBackwards() {
        // two shippers on hosts whose clocks disagree: no rate from a negative gap, the step still counts
        SequenceReadings readings = new SequenceReadings();
        readings.record("public", "s", 100, true, NOW_US);
        readings.record("public", "s", 400, true, NOW_US - SECOND_US);
        assertThat(RULE.target(readings.snapshot().get(0), 1)).isEqualTo(400 + 10 + 300);
    }

    @Test
    void shouldSaturateInsteadOfOverflowing() {
        SequenceReadings readings = new SequenceReadings();
        readings.record("public", "s", 0, true, NOW_US - 2 * SECOND_US);
        readings.record("public", "s", Long.MAX_VALUE - 5, true, NOW_US - 2 * SECOND_US + 1);
        assertThat(RULE.target(readings.snapshot().get(0), 1)).isEqualTo(Long.MAX_VALUE);
        SequenceReadings down = new SequenceReadings();
        down.record("public", "s", 0, true, NOW_US - 2 * SECOND_US);
        down.record("public", "s", Long.MIN_VALUE + 5, true, NOW_US - 2 * SECOND_US + 1);
        assertThat(RULE.target(down.snapshot().get(0), -1)).isEqualTo(Long.MIN_VALUE);
    }

    private static SequenceReadings.History history(SequenceReadings.Reading last) {
        return new SequenceReadings.History("public", "s", null, last, last.readTimeUs());
    }

    private static SequenceReadings.Reading reading(long value, long timeUs) {
        return new SequenceReadings.Reading(value, true, timeUs);
    }
}
