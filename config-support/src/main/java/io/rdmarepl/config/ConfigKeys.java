package io.rdmarepl.config;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Every key of one configuration (a role's properties file, the failover client's builder) and where they are
 * documented.
 *
 * @param name  names the configuration in messages and its table in the documentation, e.g. {@code shipper}
 * @param page  the documentation page holding its table, relative to the repository's root, e.g.
 *              {@code docs/configuration/shipper.md}; null for settings no one writes by hand
 * @param keys  in the order of the documentation's table
 */
public record ConfigKeys(String name, String page, List<ConfigKey<?>> keys) {
    public ConfigKeys {
        Objects.requireNonNull(name, "name");
        keys = List.copyOf(keys);
        Set<String> seen = new HashSet<>();
        for (ConfigKey<?> key : keys) {
            if (!seen.add(key.name())) {
                throw new IllegalArgumentException(name + " lists " + key.name() + " twice");
            }
        }
    }

    public static ConfigKeys of(String name, String page, ConfigKey<?>... keys) {
        return new ConfigKeys(name, page, List.of(keys));
    }

    /** Whether {@code key} (a key as written in a file) falls under one of the prefix keys ({@code debezium.*}). */
    boolean underPrefix(String key) {
        return keys.stream().anyMatch(k -> k.isPrefix() && key.startsWith(k.prefixText()));
    }
}
