package io.rdmarepl.conformance.monitoring;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks PromQL expressions (and the labels their legends or annotations print) against the series the code exports:
 * every series must exist, every label an expression matches, groups on or prints must be one the selected series
 * carry (or one Prometheus adds to every target), and every function must be PromQL's.
 */
final class MetricReferences {
    /** PromQL's functions and aggregation operators. */
    static final Set<String> FUNCTIONS = Set.of("abs", "absent", "absent_over_time", "avg", "avg_over_time", "bottomk",
            "ceil", "changes", "clamp", "clamp_max", "clamp_min", "count", "count_over_time", "count_values", "day_of_month",
            "day_of_week", "delta", "deriv", "exp", "floor", "group", "histogram_quantile", "hour", "idelta", "increase",
            "irate", "label_join", "label_replace", "last_over_time", "ln", "log10", "log2", "max", "max_over_time", "min",
            "min_over_time", "minute", "month", "predict_linear", "present_over_time", "quantile", "quantile_over_time",
            "rate", "resets", "round", "scalar", "sgn", "sort", "sort_desc", "sqrt", "stddev", "stddev_over_time", "stdvar",
            "sum", "sum_over_time", "time", "timestamp", "topk", "vector", "year");
    private static final Pattern PRINTED_LABEL = Pattern.compile("\\{\\{\\s*\\$?(?:labels\\.)?([a-zA-Z_][a-zA-Z0-9_]*)\\s*}}"
            + "|\\$labels\\.([a-zA-Z_][a-zA-Z0-9_]*)");

    private final Map<String, Set<String>> exported;
    private final List<String> problems = new ArrayList<>();

    MetricReferences(Map<String, Set<String>> exported) {
        this.exported = exported;
    }

    /**
     * Checks {@code expression}, found at {@code where}; {@code printed} are texts that print its labels
     * ({@code {{standby}}} in a legend, {@code {{ $labels.slot }}} in an annotation).
     */
    MetricReferences check(String where, String expression, String... printed) {
        PromQl q = PromQl.parse(expression);
        Set<String> available = new LinkedHashSet<>(ExportedMetrics.TARGET_LABELS);
        if (q.selectors().isEmpty()) {
            problems.add(where + ": selects no series: " + expression);
        }
        for (PromQl.Selector s : q.selectors()) {
            Set<String> labels = ExportedMetrics.PROMETHEUS_SERIES.contains(s.metric()) ? Set.of() : exported.get(s.metric());
            if (labels == null) {
                problems.add(where + ": " + s.metric() + " is not a series the code exports (in: " + expression + ")");
                continue;
            }
            available.addAll(labels);
            for (String label : s.labels()) {
                if (!labels.contains(label) && !ExportedMetrics.TARGET_LABELS.contains(label)) {
                    problems.add(where + ": " + s.metric() + " has no label " + label + " (it has " + labels + ")");
                }
            }
        }
        for (String label : q.groupingLabels()) {
            if (!available.contains(label)) {
                problems.add(where + ": groups or matches on " + label + ", which none of its series has " + available);
            }
        }
        for (String f : q.functions()) {
            if (!FUNCTIONS.contains(f)) {
                problems.add(where + ": " + f + "() is not a PromQL function (in: " + expression + ")");
            }
        }
        for (String text : printed) {
            Matcher m = PRINTED_LABEL.matcher(text == null ? "" : text);
            while (m.find()) {
                String label = m.group(1) != null ? m.group(1) : m.group(2);
                if (!label.equals("value") && !available.contains(label)) {
                    problems.add(where + ": prints label " + label + ", which none of its series has " + available);
                }
            }
        }
        return this;
    }

    List<String> problems() {
        return problems;
    }
}
