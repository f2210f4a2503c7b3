package io.rdmarepl.applier.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Reads typed values from {@link Properties}, falling back to each key's default, and collects every
 * problem instead of stopping at the first: {@code apply.batch.max.rows=0: must be between 1 and 100000}.
 * Never corrects a value: a bad value is a problem, reported with the key, the value and the rule.
 */
final class ConfigReader {
    private final Properties properties;
    private final Map<String, ConfigKey> known = new TreeMap<>();
    private final Map<String, String> resolved = new TreeMap<>();
    private final List<String> problems = new ArrayList<>();

    ConfigReader(Properties properties, List<ConfigKey> keys) {
        this.properties = properties;
        keys.forEach(key -> known.put(key.name(), key));
    }

    String string(ConfigKey key) {
        String value = raw(key);
        resolved.put(key.name(), key.printable(value));
        return value;
    }

    String nonEmpty(ConfigKey key) {
        String value = string(key);
        if (value.isEmpty()) {
            problem(key, value, "must not be empty");
        }
        return value;
    }

    String oneOf(ConfigKey key, Set<String> allowed) {
        String value = string(key).toLowerCase(Locale.ROOT);
        if (!allowed.contains(value)) {
            problem(key, value, "must be one of " + String.join(", ", new java.util.TreeSet<>(allowed)));
        }
        return value;
    }

    long longValue(ConfigKey key, long min, long max) {
        String value = string(key);
        try {
            long parsed = Long.parseLong(value.replace("_", ""));
            if (parsed < min || parsed > max) {
                problem(key, value, "must be between " + min + " and " + max);
            }
            return parsed;
        } catch (NumberFormatException e) {
            problem(key, value, "must be a whole number between " + min + " and " + max);
            return min;
        }
    }

    int intValue(ConfigKey key, int min, int max) {
        return (int) longValue(key, min, max);
    }

    boolean bool(ConfigKey key) {
        String value = string(key).toLowerCase(Locale.ROOT);
        if (!value.equals("true") && !value.equals("false")) {
            problem(key, value, "must be true or false");
        }
        return value.equals("true");
    }

    /** Parses with {@code parser}; its exception message becomes the rule. */
    <T> T parsed(ConfigKey key, Function<String, T> parser) {
        String value = string(key);
        try {
            return parser.apply(value);
        } catch (RuntimeException e) {
            problem(key, value, e.getMessage());
            return null;
        }
    }

    void problem(ConfigKey key, String value, String rule) {
        problems.add(key.name() + "=" + key.printable(value) + ": " + rule);
    }

    /** Unknown keys are problems too (a typo must not silently fall back to a default). */
    void checkUnknownKeys() {
        for (String name : new TreeMap<>(toMap()).keySet()) {
            if (!known.containsKey(name)) {
                String hint = closest(name);
                problems.add("unknown key '" + name + "'" + (hint == null ? "" : " (did you mean " + hint + "?)"));
            }
        }
    }

    /** Throws a {@link ConfigException} listing every problem, if any. */
    void throwIfInvalid() {
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
    }

    /** Every key with the value in force, secrets masked. */
    Map<String, String> resolved() {
        return Map.copyOf(resolved);
    }

    private String raw(ConfigKey key) {
        String value = properties.getProperty(key.name());
        return value == null ? key.defaultValue() : value.trim();
    }

    private Map<String, String> toMap() {
        Map<String, String> map = new TreeMap<>();
        properties.stringPropertyNames().forEach(name -> map.put(name, properties.getProperty(name)));
        return map;
    }

    private String closest(String name) {
        String best = null;
        int bestDistance = 4;
        for (String candidate : known.keySet()) {
            int distance = distance(name, candidate);
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return best;
    }

    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
