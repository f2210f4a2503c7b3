package io.rdmarepl.testsupport.compare;

import java.util.List;

/**
 * One table's outcome.
 *
 * @param table              qualified, quoted where SQL needs it: {@code public.t}
 * @param primaryRows        rows on the primary
 * @param replicaRows        rows on the replica; -1 when the table is missing there
 * @param differences        how many differences the table has (all of them, listed or not)
 * @param replicaOnlyColumns columns only the replica's table has: not compared
 */
public record TableResult(String table, long primaryRows, long replicaRows, long differences, List<String> replicaOnlyColumns) {
    public TableResult {
        replicaOnlyColumns = List.copyOf(replicaOnlyColumns);
    }

    public boolean equal() {
        return differences == 0;
    }

    public boolean missingOnReplica() {
        return replicaRows < 0;
    }

    /** @return e.g. {@code public.t: 120 rows on both, equal} */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder(table).append(": ");
        if (missingOnReplica()) {
            return out.append(primaryRows).append(" rows on the primary, table missing on the replica").toString();
        }
        if (primaryRows == replicaRows) {
            out.append(primaryRows).append(" rows on both");
        } else {
            out.append(primaryRows).append(" rows on the primary, ").append(replicaRows).append(" on the replica");
        }
        out.append(equal() ? ", equal" : ", DIFFERENT (" + differences + (differences == 1 ? " difference)" : " differences)"));
        if (!replicaOnlyColumns.isEmpty()) {
            out.append("; replica-only columns not compared: ").append(String.join(", ",
                    replicaOnlyColumns.stream().map(Identifiers::readable).toList()));
        }
        return out.toString();
    }
}
