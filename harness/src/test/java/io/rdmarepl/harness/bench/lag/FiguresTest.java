package io.rdmarepl.harness.bench.lag;

import static org.assertj.core.api.Assertions.assertThat;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class FiguresTest {

    @Test
    void shouldWriteMillisecondsWithAboutThreeSignificantDigits() {
        assertThat(Figures.ms(42)).isEqualTo("0.042");
        assertThat(Figures.ms(999)).isEqualTo("0.999");
        assertThat(Figures.ms(5_210)).isEqualTo("5.21");
        assertThat(Figures.ms(20_149)).isEqualTo("20.1");
        assertThat(Figures.ms(1_234_400)).isEqualTo("1234");
        assertThat(Figures.ms(0)).isEqualTo("0.000");
    }

    @Test
    void shouldDivideAndWriteRatios() {
        assertThat(Figures.ratio(5_210, 1_050)).isEqualTo(4.962);
        assertThat(Figures.ratio(500, 1_000)).isEqualTo(0.5);
        assertThat(Figures.ratio(5, 0)).isNull();
        assertThat(Figures.ratioText(4.962)).isEqualTo("4.96x");
        assertThat(Figures.ratioText(0.5)).isEqualTo("0.50x");
        assertThat(Figures.ratioText(12.34)).isEqualTo("12.3x");
        assertThat(Figures.ratioText(150.4)).isEqualTo("150x");
        assertThat(Figures.ratioText(null)).isEqualTo("-");
    }

    @Test
    void shouldReadPercentilesInMicroseconds() {
        Histogram h = Figures.histogram();
        for (long us = 1; us <= 1000; us++) {
            Figures.record(h, us);
        }
        Figures.record(h, -5);                       // clamped to 0
        Figures.record(h, Figures.HIGHEST_US * 2);  // clamped to the top

        assertThat(Figures.percentiles(h)).containsOnlyKeys("p50", "p90", "p99", "p999", "max");
        assertThat(Figures.percentiles(h).get("p50")).isBetween(500L, 501L);
        assertThat(Figures.percentiles(h).get("p90")).isBetween(900L, 901L);
        assertThat(Figures.percentiles(h).get("p99")).isBetween(990L, 991L);
        assertThat(h.getMinValue()).isZero();
        assertThat(Figures.percentiles(h).get("max")).isGreaterThanOrEqualTo(Figures.HIGHEST_US);
    }

    @Test
    void shouldGiveZerosForAnEmptyHistogram() {
        assertThat(Figures.percentiles(Figures.histogram())).allSatisfy((p, v) -> assertThat(v).isZero());
    }
}
