package io.rdmarepl.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Reads typed values from properties and collects every problem, so one error lists them all:
 * key, value (secrets masked) and the rule broken.
 */
public final class ConfigProblems {
    private final Properties properties;
    private final Set<String> secrets;
    private final Set<String> read = new TreeSet<>();
    private final List<String> problems = new ArrayList<>();
    private final String role;

    /**
     * @param role names the configuration table of docs/configuration.md in the unknown-key message, e.g. {@code shipper}
     * @param secrets keys whose values are masked in every message
     */
    public ConfigProblems(Properties properties, Set<String> secrets, String role) {
        this.properties = properties;
        this.secrets = secrets;
        this.role = role;
    }

    public String string(String key, String defaultValue) {
        read.add(key);
        String value = properties.getProperty(key);
        return value == null ? defaultValue : value.trim();
    }

    public int integer(String key, int defaultValue, int min, int max) {
        return (int) number(key, defaultValue, min, max, Integer::parseInt);
    }

    public long longValue(String key, long defaultValue, long min, long max) {
        return number(key, defaultValue, min, max, Long::parseLong);
    }

    public boolean bool(String key, boolean defaultValue) {
        String value = string(key, null);
        if (value == null) {
            return defaultValue;
        }
        if (!value.equals("true") && !value.equals("false")) {
            problem(key, value, "must be true or false");
            return defaultValue;
        }
        return Boolean.parseBoolean(value);
    }

    public String oneOf(String key, String defaultValue, Set<String> allowed) {
        String value = string(key, defaultValue);
        if (!allowed.contains(value)) {
            problem(key, value, "must be one of " + new java.util.TreeSet<>(allowed));
        }
        return value;
    }

    public void problem(String key, String value, String rule) {
        problems.add(key + "=" + (secrets.contains(key) ? "****" : value) + ": " + rule);
    }

    /** Keys that are neither read nor under one of {@code prefixes}: typos never pass silently. */
    public void rejectUnknown(Set<String> prefixes) {
        for (String key : new TreeSet<>(properties.stringPropertyNames())) {
            if (!read.contains(key) && prefixes.stream().noneMatch(key::startsWith)) {
                problems.add(key + ": unknown key (see the " + role + " configuration table in docs/configuration.md)");
            }
        }
    }

    public void throwIfAny(String what) {
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid " + what + ":\n  " + String.join("\n  ", problems));
        }
    }

    private long number(String key, long defaultValue, long min, long max, Function<String, Number> parse) {
        String value = string(key, null);
        if (value == null) {
            return defaultValue;
        }
        try {
            long parsed = parse.apply(value).longValue();
            if (parsed < min || parsed > max) {
                problem(key, value, "must be between " + min + " and " + max);
                return defaultValue;
            }
            return parsed;
        } catch (NumberFormatException e) {
            problem(key, value, "must be a whole number");
            return defaultValue;
        }
    }
}
