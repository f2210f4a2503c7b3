package io.rdmarepl.harness.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Min, median, p99 and max of a handful of measurements (one per trial), nearest-rank: every figure is one of the
 * measured values, so with 10 trials the p99 is the largest.
 */
record Spread(double min, double median, double p99, double max, int samples) {

    static Spread of(List<? extends Number> values) {
        if (values.isEmpty()) {
            return new Spread(Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0);
        }
        List<Double> sorted = new ArrayList<>();
        values.forEach(v -> sorted.add(v.doubleValue()));
        Collections.sort(sorted);
        return new Spread(sorted.get(0), rank(sorted, 0.50), rank(sorted, 0.99), sorted.get(sorted.size() - 1), sorted.size());
    }

    private static double rank(List<Double> sorted, double quantile) {
        int index = (int) Math.ceil(quantile * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    /** {@code {"min":..,"median":..,"p99":..,"max":..}}, values rounded to 0.1 (null when there were none). */
    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("min", round(min));
        m.put("median", round(median));
        m.put("p99", round(p99));
        m.put("max", round(max));
        return m;
    }

    private static Object round(double value) {
        if (Double.isNaN(value)) {
            return null;
        }
        double rounded = Math.round(value * 10) / 10.0;
        return rounded == Math.rint(rounded) ? (Object) (long) rounded : (Object) rounded;
    }

    /** One table row: the four figures, right-aligned. */
    String row() {
        return String.format("%8s %8s %8s %8s", text(min), text(median), text(p99), text(max));
    }

    private static String text(double value) {
        Object rounded = round(value);
        return rounded == null ? "-" : String.valueOf(rounded);
    }
}
