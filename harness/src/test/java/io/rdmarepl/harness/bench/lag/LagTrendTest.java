package io.rdmarepl.harness.bench.lag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LagTrendTest {
    private static final long T0 = 1_764_000_000_000_000L;

    @Test
    void shouldFindNoGrowthInAFlatNoisyLag() {
        List<ProbeSample> samples = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            samples.add(new ProbeSample(i, T0 + i * 10_000L, 5_000 + (i % 7) * 300)); // 100/s for 20 s, 5 - 6.8 ms
        }

        double slope = LagTrend.slopeMsPerS(samples);

        assertThat(slope).isCloseTo(0, within(0.05));
        assertThat(LagTrend.bounded(slope)).isTrue();
    }

    @Test
    void shouldMeasureALagThatGrowsWhenTheReplicaFallsBehind() {
        List<ProbeSample> samples = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            long sentUs = i * 10_000L;
            samples.add(new ProbeSample(i, T0 + sentUs, 3_000 + sentUs / 5)); // applies at 80% of the commit rate
        }

        double slope = LagTrend.slopeMsPerS(samples);

        assertThat(slope).isCloseTo(200, within(0.01));
        assertThat(LagTrend.bounded(slope)).isFalse();
    }

    @Test
    void shouldNeedTwoSamples() {
        assertThat(LagTrend.slopeMsPerS(List.of())).isZero();
        assertThat(LagTrend.slopeMsPerS(List.of(new ProbeSample(1, T0, 9_999)))).isZero();
    }
}
