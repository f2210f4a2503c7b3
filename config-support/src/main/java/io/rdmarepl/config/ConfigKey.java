package io.rdmarepl.config;

import java.util.Objects;

/**
 * One configuration key: its name (units in the name: {@code apply.group.max.ms}), its value type with its rules, its
 * default as text, a one-line description, and whether its value is a secret (masked in every message and log).
 *
 * <p>Three shapes of name: a plain one; a template holding {@value #NAME_PLACEHOLDER} ({@code standby.<name>.uri}),
 * read through {@link #named}; and a prefix ending in {@code .*} ({@code debezium.*}), whose keys are handed on as they
 * are. A key whose default breaks its own rules has none: it must be set ({@link #required()}).
 *
 * @param <T> the typed value
 */
public final class ConfigKey<T> {
    public static final String NAME_PLACEHOLDER = "<name>";
    private static final String PREFIX_SUFFIX = ".*";

    private final String name;
    private final ValueType<T> type;
    private final String defaultText;
    private final String description;
    private final boolean secret;
    private final T defaultValue;
    private final boolean required;

    private ConfigKey(String name, ValueType<T> type, String defaultText, String description, boolean secret) {
        this.name = Objects.requireNonNull(name, "name");
        this.type = Objects.requireNonNull(type, "type");
        this.defaultText = Objects.requireNonNull(defaultText, "defaultText");
        this.description = Objects.requireNonNull(description, "description");
        this.secret = secret;
        T parsed;
        boolean noDefault;
        try {
            parsed = type.parse(defaultText);
            noDefault = false;
        } catch (IllegalArgumentException e) {
            parsed = null;
            noDefault = true;
        }
        this.defaultValue = parsed;
        this.required = noDefault;
    }

    public static <T> ConfigKey<T> key(String name, ValueType<T> type, String defaultText, String description) {
        return new ConfigKey<>(name, type, defaultText, description, false);
    }

    /** A key whose value is never printed: masked as {@code ****} in problems and in the resolved configuration. */
    public static <T> ConfigKey<T> secret(String name, ValueType<T> type, String defaultText, String description) {
        return new ConfigKey<>(name, type, defaultText, description, true);
    }

    /** Every key starting with {@code prefix} (which ends in {@code .*}), handed on as it is (without the prefix). */
    public static ConfigKey<String> prefix(String prefix, String description) {
        if (!prefix.endsWith(PREFIX_SUFFIX)) {
            throw new IllegalArgumentException("a prefix key ends in .*: " + prefix);
        }
        return new ConfigKey<>(prefix, ValueTypes.text().documentedAs("handed on as written"), "", description, false);
    }

    /** This template's key for one {@code member}: {@code standby.<name>.uri} named {@code b} is {@code standby.b.uri}. */
    public ConfigKey<T> named(String member) {
        if (!isTemplate()) {
            throw new IllegalStateException(name + " holds no " + NAME_PLACEHOLDER);
        }
        return new ConfigKey<>(name.replace(NAME_PLACEHOLDER, member), type, defaultText, description, secret);
    }

    public boolean isTemplate() {
        return name.contains(NAME_PLACEHOLDER);
    }

    public boolean isPrefix() {
        return name.endsWith(PREFIX_SUFFIX);
    }

    /** For a prefix key, what its keys start with: {@code debezium.} for {@code debezium.*}. */
    public String prefixText() {
        return name.substring(0, name.length() - 1);
    }

    public String name() {
        return name;
    }

    public ValueType<T> type() {
        return type;
    }

    /** The default as written in a properties file; empty for none. */
    public String defaultText() {
        return defaultText;
    }

    /** The default's value, null for a {@link #required()} key. */
    public T defaultValue() {
        return defaultValue;
    }

    /** Whether the default breaks the key's own rules, so the key must be set. */
    public boolean required() {
        return required;
    }

    public String description() {
        return description;
    }

    public boolean secret() {
        return secret;
    }

    /** {@code value} as it may be printed: a secret's becomes {@code ****} (an empty one stays empty: it reveals nothing). */
    public String printable(String value) {
        return secret && value != null && !value.isEmpty() ? "****" : value;
    }

    @Override
    public String toString() {
        return name;
    }
}
