package io.rdmarepl.testsupport.compare;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A table as one server's catalog has it.
 *
 * @param relkind {@code r} (ordinary) or {@code p} (partitioned)
 * @param columns name to type ({@code format_type}), in column order
 * @param key     the primary key's columns, else the replica identity index's, else empty; in index order
 */
record TableShape(String schema, String name, char relkind, Map<String, String> columns, List<String> key) {
    TableShape {
        columns = new LinkedHashMap<>(columns);
        key = List.copyOf(key);
    }

    String display() {
        return Identifiers.display(schema, name);
    }

    /**
     * @return what to read the rows from: a partitioned table with all its partitions, an ordinary table
     * {@code ONLY} its own rows (inheritance children are tables of their own and compared as such)
     */
    String from() {
        return (relkind == 'p' ? "" : "ONLY ") + Identifiers.qualified(schema, name);
    }
}
