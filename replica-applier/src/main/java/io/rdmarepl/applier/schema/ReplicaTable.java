package io.rdmarepl.applier.schema;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A table of the replica as its catalog describes it: columns by name, primary key, partitioned or not.
 *
 * @param keyDecidesConflicts the primary key is its only unique or exclusion constraint and compares bytes
 *                            (deterministic collations), and the table is not partitioned (partitions may carry
 *                            constraints of their own)
 * @param firesForApplier     a trigger or rule of the table fires in the applier's sessions (enabled ALWAYS or
 *                            REPLICA): a change of it runs only after every change before it and before any after it
 */
public record ReplicaTable(String schema, String name, boolean partitioned, List<ReplicaColumn> columns,
                           boolean keyDecidesConflicts, boolean firesForApplier) {

    public ReplicaTable {
        columns = List.copyOf(columns);
    }

    public Map<String, ReplicaColumn> byName() {
        return columns.stream().collect(Collectors.toMap(ReplicaColumn::name, Function.identity()));
    }

    public List<ReplicaColumn> primaryKey() {
        return columns.stream().filter(ReplicaColumn::primaryKey).toList();
    }

    public String qualifiedName() {
        return SqlNames.qualified(schema, name);
    }
}
