package io.rdmarepl.testsupport.compare;

import java.util.List;
import java.util.Optional;

/** What {@link ReplicaComparison#run()} found: per table and sequence, and every difference (the first ones listed). */
public final class ComparisonReport {
    /** Differences {@link #toString()} shows; the rest are counted. */
    static final int SHOWN = 50;

    private final List<TableResult> tables;
    private final List<SequenceResult> sequences;
    private final List<Difference> differences;
    private final long differenceCount;

    ComparisonReport(List<TableResult> tables, List<SequenceResult> sequences, List<Difference> differences, long differenceCount) {
        this.tables = List.copyOf(tables);
        this.sequences = List.copyOf(sequences);
        this.differences = List.copyOf(differences);
        this.differenceCount = differenceCount;
    }

    /** @return true when no difference of any kind was found */
    public boolean equal() {
        return differenceCount == 0;
    }

    /**
     * @return the differences, table by table in the order compared, then sequences; at most
     * {@value DifferenceLog#LISTED} per table or sequence are listed, {@link #differenceCount()} counts all
     */
    public List<Difference> differences() {
        return differences;
    }

    /** @return how many differences there are, listed or not */
    public long differenceCount() {
        return differenceCount;
    }

    /** @return every table compared, in order (schema, name) */
    public List<TableResult> tables() {
        return tables;
    }

    /** @param table as the report names it: {@code public.t}, {@code "Odd"."T"} */
    public Optional<TableResult> table(String table) {
        return tables.stream().filter(t -> t.table().equals(table)).findFirst();
    }

    /** @return every sequence compared; empty when sequences were not compared */
    public List<SequenceResult> sequences() {
        return sequences;
    }

    /**
     * @return a verdict line, one line per table and sequence, then each difference on its own line (the first
     * {@value #SHOWN}, then how many more)
     */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("replica = primary: ");
        long differentTables = tables.stream().filter(t -> !t.equal()).count();
        long differentSequences = sequences.stream().filter(s -> !s.equal()).count();
        out.append(equal() ? "EQUAL" : "DIFFERENT, " + differenceCount + (differenceCount == 1 ? " difference" : " differences"))
                .append(" (").append(tables.size()).append(" tables compared");
        if (differentTables > 0) {
            out.append(", ").append(differentTables).append(" differ");
        }
        out.append("; ").append(sequences.size()).append(" sequences compared");
        if (differentSequences > 0) {
            out.append(", ").append(differentSequences).append(" differ");
        }
        out.append(")\n");
        tables.forEach(t -> out.append(t).append('\n'));
        sequences.forEach(s -> out.append(s).append('\n'));
        if (!equal()) {
            out.append("differences:\n");
            differences.stream().limit(SHOWN).forEach(d -> out.append("  ").append(d).append('\n'));
            long rest = differenceCount - Math.min(SHOWN, differences.size());
            if (rest > 0) {
                out.append("  ... and ").append(rest).append(" more\n");
            }
        }
        return out.toString();
    }
}
