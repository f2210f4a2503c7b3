package io.rdmarepl.harness.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SpreadTest {

    @Test
    void shouldTakeNearestRankFiguresThatWereMeasured() {
        Spread spread = Spread.of(List.of(40, 10, 30, 20, 100, 50, 60, 70, 80, 90));

        assertThat(spread.min()).isEqualTo(10);
        assertThat(spread.median()).isEqualTo(50);
        assertThat(spread.p99()).isEqualTo(100);
        assertThat(spread.max()).isEqualTo(100);
        assertThat(spread.samples()).isEqualTo(10);
    }

    @Test
    void shouldRoundToOneDecimalAndPrintWholeNumbersWithoutOne() {
        Spread spread = Spread.of(List.of(72.84, 80.0));

        assertThat(spread.toMap()).containsEntry("min", 72.8).containsEntry("max", 80L).containsEntry("median", 72.8);
    }

    @Test
    void shouldReportNoFiguresWithoutSamples() {
        assertThat(Spread.of(List.of()).toMap()).containsEntry("median", null);
        assertThat(Spread.of(List.of()).row()).contains("-");
    }
}
