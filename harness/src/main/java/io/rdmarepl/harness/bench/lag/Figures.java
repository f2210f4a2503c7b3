package io.rdmarepl.harness.bench.lag;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** Percentiles of a histogram, and the way the report writes durations and ratios. */
final class Figures {
    /** Longest lag or commit a histogram holds, in microseconds (10 minutes); longer values are clamped to it. */
    static final long HIGHEST_US = 600_000_000L;
    static final String[] PERCENTILES = {"p50", "p90", "p99", "p999", "max"};

    private Figures() {
    }

    static Histogram histogram() {
        return new Histogram(HIGHEST_US, 3);
    }

    static void record(Histogram histogram, long us) {
        histogram.recordValue(Math.max(0, Math.min(HIGHEST_US, us)));
    }

    /** {@code {"p50":..,"p90":..,"p99":..,"p999":..,"max":..}} in microseconds; zeros when empty. */
    static Map<String, Long> percentiles(Histogram h) {
        Map<String, Long> m = new LinkedHashMap<>();
        boolean empty = h.getTotalCount() == 0;
        m.put("p50", empty ? 0 : h.getValueAtPercentile(50));
        m.put("p90", empty ? 0 : h.getValueAtPercentile(90));
        m.put("p99", empty ? 0 : h.getValueAtPercentile(99));
        m.put("p999", empty ? 0 : h.getValueAtPercentile(99.9));
        m.put("max", empty ? 0 : h.getMaxValue());
        return m;
    }

    /** Microseconds as milliseconds with about three significant digits: 0.042, 5.21, 20.1, 1234. */
    static String ms(long us) {
        double ms = us / 1000.0;
        if (ms < 1) {
            return String.format(Locale.ROOT, "%.3f", ms);
        }
        if (ms < 10) {
            return String.format(Locale.ROOT, "%.2f", ms);
        }
        if (ms < 100) {
            return String.format(Locale.ROOT, "%.1f", ms);
        }
        return String.format(Locale.ROOT, "%.0f", ms);
    }

    /** {@code a / b}, rounded to 3 decimals; null when {@code b} is not positive. */
    static Double ratio(long a, long b) {
        return b <= 0 ? null : Math.round(a * 1000.0 / b) / 1000.0;
    }

    /** A ratio for people: 0.52x, 4.96x, 12.3x, 150x; "-" when there is none. */
    static String ratioText(Double ratio) {
        if (ratio == null) {
            return "-";
        }
        if (ratio < 10) {
            return String.format(Locale.ROOT, "%.2fx", ratio);
        }
        if (ratio < 100) {
            return String.format(Locale.ROOT, "%.1fx", ratio);
        }
        return String.format(Locale.ROOT, "%.0fx", ratio);
    }
}
