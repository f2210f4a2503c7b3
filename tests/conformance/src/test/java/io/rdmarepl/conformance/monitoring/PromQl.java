package io.rdmarepl.conformance.monitoring;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a PromQL expression refers to: the series it selects (with the labels its matchers name), the labels it groups
 * or matches on, and the functions it calls. Enough of PromQL for dashboards and alert rules (selectors, ranges,
 * offsets, aggregations with by/without, vector matching with on/ignoring/group_*, functions, numbers, strings);
 * anything it cannot place ends up as a series name, so a misread fails the check rather than passing it.
 */
record PromQl(List<Selector> selectors, Set<String> groupingLabels, Set<String> functions) {
    /** A selected series and the label names its matchers use. */
    record Selector(String metric, Set<String> labels) {
    }

    private static final String NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
    private static final Pattern BRACED_SELECTOR = Pattern.compile("(" + NAME + ")?\\s*\\{([^}]*)}");
    private static final Pattern MATCHER = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(?:=~|!~|!=|=)\\s*\"(?:[^\"\\\\]|\\\\.)*\"");
    private static final Pattern RANGE = Pattern.compile("\\[[^\\]]*]");
    private static final Pattern OFFSET = Pattern.compile("\\boffset\\s+-?[0-9a-z]+");
    private static final Pattern GROUPING = Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\(([^)]*)\\)");
    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
    private static final Pattern TOKEN = Pattern.compile("(\\d+(?:\\.\\d*)?(?:[eE][+-]?\\d+)?)|(" + NAME + ")(\\s*\\()?");
    private static final String PLACED = "\u0000";
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "inf", "nan", "Inf", "NaN",
            "group_left", "group_right");

    static PromQl parse(String expression) {
        List<Selector> selectors = new ArrayList<>();
        Set<String> grouping = new LinkedHashSet<>();
        Set<String> functions = new LinkedHashSet<>();

        StringBuilder rest = new StringBuilder();
        Matcher braced = BRACED_SELECTOR.matcher(expression);
        while (braced.find()) {
            Set<String> labels = new LinkedHashSet<>();
            Matcher m = MATCHER.matcher(braced.group(2));
            while (m.find()) {
                labels.add(m.group(1));
            }
            // a selector without a name is refused: it names no series to check
            selectors.add(new Selector(braced.group(1) == null ? "{" + braced.group(2) + "}" : braced.group(1), labels));
            braced.appendReplacement(rest, " " + PLACED + " ");
        }
        braced.appendTail(rest);

        String text = RANGE.matcher(rest).replaceAll(" ");
        text = OFFSET.matcher(text).replaceAll(" ");
        StringBuilder ungrouped = new StringBuilder();
        Matcher g = GROUPING.matcher(text);
        while (g.find()) {
            for (String label : g.group(2).split(",")) {
                if (!label.isBlank()) {
                    grouping.add(label.trim());
                }
            }
            g.appendReplacement(ungrouped, " ");
        }
        g.appendTail(ungrouped);
        text = STRING.matcher(ungrouped).replaceAll(" ");

        Matcher t = TOKEN.matcher(text);
        while (t.find()) {
            String name = t.group(2);
            if (name == null || KEYWORDS.contains(name)) {
                continue;
            }
            if (t.group(3) != null) {
                functions.add(name);
            } else {
                selectors.add(new Selector(name, Set.of()));
            }
        }
        return new PromQl(selectors, grouping, functions);
    }
}
