package io.rdmarepl.applier.config;

/**
 * One configuration key: its name (units in the name, e.g. {@code apply.group.max.ms}), its default
 * as text, a one-line description, and whether its value is a secret (masked in messages and logs).
 */
public record ConfigKey(String name, String defaultValue, String description, boolean secret) {

    static ConfigKey key(String name, String defaultValue, String description) {
        return new ConfigKey(name, defaultValue, description, false);
    }

    static ConfigKey secret(String name, String defaultValue, String description) {
        return new ConfigKey(name, defaultValue, description, true);
    }

    /** The value as it may be printed: secrets become {@code ****} (or stay empty when empty). */
    public String printable(String value) {
        return secret && value != null && !value.isEmpty() ? "****" : value;
    }
}
