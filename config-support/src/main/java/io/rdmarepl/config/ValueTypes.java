package io.rdmarepl.config;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/** The value types the roles' keys are made of. */
public final class ValueTypes {
    private ValueTypes() {
    }

    /** Any text, the empty text included. */
    public static ValueType<String> text() {
        return ValueType.of("text", Function.identity());
    }

    public static ValueType<String> nonEmptyText() {
        return text().where(s -> !s.isEmpty(), "must not be empty").documentedAs("text, not empty");
    }

    /** A whole number in {@code [min, max]}; {@code _} may group digits ({@code 1_000_000}). */
    public static ValueType<Long> wholeNumber(long min, long max) {
        String range = "between " + min + " and " + max;
        return ValueType.of(min + ".." + max, text -> whole(text, "must be a whole number " + range))
                .where(v -> v >= min && v <= max, "must be " + range);
    }

    /** As {@link #wholeNumber}, as an int. */
    public static ValueType<Integer> integer(int min, int max) {
        String range = "between " + min + " and " + max;
        return ValueType.of(min + ".." + max, text -> {
            long value = whole(text, "must be a whole number " + range);
            if (value < min || value > max) {
                throw new IllegalArgumentException("must be " + range);
            }
            return (int) value;
        }).where(v -> v >= min && v <= max, "must be " + range);
    }

    /** A power of two in {@code [min, max]}. */
    public static ValueType<Integer> powerOfTwo(int min, int max) {
        String rule = "must be a power of two between " + min + " and " + max;
        return ValueType.of("power of two, " + min + ".." + max, text -> {
            long value = whole(text, rule);
            if (value < min || value > max) {
                throw new IllegalArgumentException(rule);
            }
            return (int) value;
        }).where(v -> v >= min && v <= max && Integer.bitCount(v) == 1, rule);
    }

    private static long whole(String text, String rule) {
        try {
            return Long.parseLong(text.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(rule);
        }
    }

    /** {@code true} or {@code false}, in any case. */
    public static ValueType<Boolean> bool() {
        return ValueType.of("true, false", text -> switch (text.toLowerCase(Locale.ROOT)) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException("must be true or false");
        });
    }

    /** One of {@code choices}, in any case; the value is the choice as written here. */
    public static ValueType<String> oneOf(String... choices) {
        String listed = String.join(", ", choices);
        return ValueType.of(listed, text -> Arrays.stream(choices).filter(c -> c.equalsIgnoreCase(text)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("must be one of " + listed)));
    }

    /** One of {@code choices}, each written as {@code text} says, in any case. */
    public static <E> ValueType<E> choice(E[] choices, Function<E, String> text) {
        ValueType<String> written = oneOf(Arrays.stream(choices).map(text).toArray(String[]::new));
        return ValueType.of(written.values(), t -> {
            String chosen = written.parse(t);
            return Arrays.stream(choices).filter(c -> text.apply(c).equals(chosen)).findFirst().orElseThrow();
        }).shownAs(c -> text.apply(c));
    }

    /** Comma-separated items, each trimmed; empty items are left out. */
    public static ValueType<List<String>> list() {
        return ValueType.<List<String>>of("comma-separated list", text -> {
            List<String> items = new ArrayList<>();
            for (String item : text.split(",")) {
                if (!item.isBlank()) {
                    items.add(item.trim());
                }
            }
            return List.copyOf(items);
        }).shownAs(items -> String.join(",", items));
    }

    /** {@code host:port}, the port 0..65535 (0: any free port). */
    public static ValueType<InetSocketAddress> hostPort() {
        return ValueType.of("host:port", text -> {
            int colon = text.lastIndexOf(':');
            try {
                if (colon > 0) {
                    int port = Integer.parseInt(text.substring(colon + 1));
                    if (port >= 0 && port <= 65535) {
                        return new InetSocketAddress(text.substring(0, colon), port);
                    }
                }
            } catch (NumberFormatException e) {
                // the rule below says what is wrong
            }
            throw new IllegalArgumentException("must be host:port with port 0..65535");
        }).shownAs(a -> a.getHostString() + ":" + a.getPort());
    }

    /** A duration written as whole milliseconds ({@code 500}, or {@code 500 ms}); shown as {@code 500 ms}. */
    public static ValueType<Duration> milliseconds() {
        return ValueType.of("milliseconds", text -> {
            String digits = text.endsWith("ms") ? text.substring(0, text.length() - 2).trim() : text;
            try {
                return Duration.ofMillis(Long.parseLong(digits.replace("_", "")));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("must be a whole number of milliseconds");
            }
        }).shownAs(d -> d.toMillis() + " ms");
    }
}
