package io.rdmarepl.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads typed values of {@link ConfigKey}s from a {@link ConfigSource}, falling back to each key's default, and
 * collects every problem instead of stopping at the first; {@link #throwIfInvalid()} then reports them all at once
 * ({@link ConfigException}). A bad value is never corrected: it is a problem, and the key's default stands in only so
 * that reading can go on. A value may be a reference ({@code ${env:NAME}}, {@code ${file:/path}}).
 *
 * <p>A loader reads every key, adds the problems its rules across keys find ({@link #problem}), then calls
 * {@link #rejectUnknownKeys()} if its role refuses keys it does not know, and {@link #throwIfInvalid()}. A builder
 * that takes its values in code checks each with {@link #check}.
 */
public final class ConfigReader {
    private final ConfigSource source;
    private final ConfigKeys keys;
    private final Set<String> read = new HashSet<>();
    private final Map<String, String> resolved = new TreeMap<>();
    private final Map<String, String> references = new HashMap<>();
    private final List<String> problems = new ArrayList<>();

    public ConfigReader(ConfigSource source, ConfigKeys keys) {
        this.source = source;
        this.keys = keys;
    }

    /** A reader for settings given in code (a builder): nothing to read, values to {@link #check}. */
    public static ConfigReader forSettings(String name, ConfigKeys keys) {
        return new ConfigReader(ConfigSource.of(name, new Properties()), keys);
    }

    /**
     * @return the key's value, or its default when it is not set; its default (null for a required key) when the value
     *         breaks a rule, which is then a problem
     */
    public <T> T get(ConfigKey<T> key) {
        if (key.isTemplate() || key.isPrefix()) {
            throw new IllegalArgumentException(key.name() + " is no single key: read " + (key.isTemplate()
                    ? "its named(...) keys" : "it with under(...)"));
        }
        read.add(key.name());
        String written = source.properties().getProperty(key.name());
        if (written == null) {
            resolved.put(key.name(), key.printable(key.defaultText()));
            if (key.required()) {
                parseValue(key, key.defaultText());
            }
            return key.defaultValue();
        }
        String value = resolve(key.name(), written.trim());
        if (value == null) {
            resolved.put(key.name(), written.trim());
            return key.defaultValue();
        }
        resolved.put(key.name(), key.printable(value));
        return parseValue(key, value);
    }

    /**
     * Every key under a prefix key ({@code debezium.*}), without the prefix, its value as written (a reference
     * resolved). These values are handed on as they are, and never shown.
     */
    public Map<String, String> under(ConfigKey<?> prefixKey) {
        if (!prefixKey.isPrefix()) {
            throw new IllegalArgumentException(prefixKey.name() + " is no prefix key");
        }
        Map<String, String> found = new LinkedHashMap<>();
        for (String name : new TreeSet<>(source.properties().stringPropertyNames())) {
            if (name.startsWith(prefixKey.prefixText())) {
                String written = source.properties().getProperty(name);
                String value = ValueReference.isReference(written.trim()) ? resolve(name, written.trim()) : written;
                if (value != null) {
                    found.put(name.substring(prefixKey.prefixText().length()), value);
                }
            }
        }
        return found;
    }

    /**
     * A value given in code as text (null read as empty), parsed as if it were written in the source.
     *
     * @return its value; the key's default when it breaks a rule, which is then a problem
     */
    public <T> T parse(ConfigKey<T> key, String text) {
        return parseValue(key, text == null ? "" : text.trim());
    }

    /** A value given in code: one that breaks the key's rules is a problem. Returns {@code value}. */
    public <T> T check(ConfigKey<T> key, T value) {
        String broken = key.type().check(value);
        if (broken != null) {
            problem(key, key.type().show(value), broken);
        }
        return value;
    }

    /** A problem a loader finds: {@code key=value: rule}, the value masked if the key is a secret. */
    public void problem(ConfigKey<?> key, String value, String rule) {
        String reference = references.get(key.name());
        problems.add(key.name() + "=" + key.printable(value) + (reference == null ? "" : " (from " + reference + ")") + ": " + rule);
    }

    /**
     * A problem with a key handed on under a prefix key: {@code debezium.schema.include.list=...: rule}. Its value is
     * printed: call it only for keys that hold no secret.
     */
    public void problemUnder(ConfigKey<?> prefixKey, String name, String value, String rule) {
        problems.add(prefixKey.prefixText() + name + "=" + value + ": " + rule);
    }

    /**
     * Every key of the source that was neither read nor falls under a prefix key is a problem: a typo must not pass
     * silently for a default. Names the closest known key when one is near.
     */
    public void rejectUnknownKeys() {
        Set<String> known = new TreeSet<>(read);
        keys.keys().stream().filter(k -> !k.isTemplate() && !k.isPrefix()).forEach(k -> known.add(k.name()));
        for (String name : new TreeSet<>(source.properties().stringPropertyNames())) {
            if (!read.contains(name) && !keys.underPrefix(name)) {
                String closest = Spelling.closest(name, known);
                problems.add(name + ": unknown key" + (closest != null ? " (did you mean " + closest + "?)"
                        : keys.page() != null ? " (every key is in " + keys.page() + ")" : ""));
            }
        }
    }

    /** @throws ConfigException listing every problem, if there is one */
    public void throwIfInvalid() {
        if (!problems.isEmpty()) {
            throw new ConfigException(source.name(), problems);
        }
    }


    /** Every key read, with the value in force; secrets masked. */
    public Map<String, String> resolved() {
        return Map.copyOf(resolved);
    }

    private <T> T parseValue(ConfigKey<T> key, String value) {
        try {
            return key.type().parse(value);
        } catch (IllegalArgumentException e) {
            problem(key, value, e.getMessage());
            return key.defaultValue();
        }
    }

    /** The value {@code written} stands for; null, and a problem naming the reference, when it cannot be read. */
    private String resolve(String name, String written) {
        if (!ValueReference.isReference(written)) {
            return written;
        }
        references.put(name, written);
        try {
            return ValueReference.resolve(written, source.directory());
        } catch (IllegalArgumentException e) {
            problems.add(name + "=" + written + ": " + e.getMessage());
            return null;
        }
    }
}
