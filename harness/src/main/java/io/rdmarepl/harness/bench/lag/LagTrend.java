package io.rdmarepl.harness.bench.lag;

import java.util.List;

/**
 * Whether the lag stayed bounded during a round: the least-squares slope of lag against send time.
 * A replica that keeps up has a flat lag whatever its level; one that falls behind gains lag at
 * {@code 1 - apply rate / commit rate} seconds per second. Bounded means it gained less than
 * {@value #BOUNDED_MS_PER_S} ms per second of load.
 */
final class LagTrend {
    static final double BOUNDED_MS_PER_S = 10.0;

    private LagTrend() {
    }

    /** Milliseconds of lag gained per second of the round; 0 with fewer than two samples. */
    static double slopeMsPerS(List<ProbeSample> samples) {
        int n = samples.size();
        if (n < 2) {
            return 0;
        }
        long t0 = samples.get(0).sentAtUs();
        double meanX = 0;
        double meanY = 0;
        for (ProbeSample s : samples) {
            meanX += (s.sentAtUs() - t0) / 1e6;
            meanY += s.lagUs() / 1e3;
        }
        meanX /= n;
        meanY /= n;
        double sxy = 0;
        double sxx = 0;
        for (ProbeSample s : samples) {
            double dx = (s.sentAtUs() - t0) / 1e6 - meanX;
            sxy += dx * (s.lagUs() / 1e3 - meanY);
            sxx += dx * dx;
        }
        return sxx == 0 ? 0 : sxy / sxx;
    }

    static boolean bounded(double slopeMsPerS) {
        return slopeMsPerS < BOUNDED_MS_PER_S;
    }
}
