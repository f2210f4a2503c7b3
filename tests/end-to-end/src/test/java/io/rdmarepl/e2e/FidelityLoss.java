package io.rdmarepl.e2e;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * One value a capture engine is known not to carry exactly through the hostile schema: the comparison must report
 * exactly these differences (table, key, column), no more and no fewer. {@link HostileSchemaIT} fails when one
 * disappears (update the list, and docs/data-fidelity.md) or a new one appears (a defect).
 *
 * @param relation as the comparison names it, {@code public.t_time}
 * @param key      as the comparison prints it, {@code (id)=(3)}
 * @param column   the column
 * @param value    the primary's value, for people
 * @param why      why the engine cannot carry it
 * @param phases   where the difference shows: after the initial copy, after streaming, or both
 */
record FidelityLoss(String relation, String key, String column, String value, String why, Set<Phase> phases) {
    enum Phase { COPY, STREAM }

    static final Set<Phase> BOTH = EnumSet.allOf(Phase.class);
    static final Set<Phase> COPY_ONLY = EnumSet.of(Phase.COPY);
    static final Set<Phase> STREAM_ONLY = EnumSet.of(Phase.STREAM);

    /** The losses of {@code engine} seen in {@code phase}. */
    static List<FidelityLoss> of(String engine, Phase phase) {
        List<FidelityLoss> all = switch (engine) {
            case "debezium" -> DebeziumLosses.LOSSES;
            case "pgoutput" -> List.of(); // the server's own text output, unparsed: nothing to lose
            default -> throw new IllegalArgumentException("no fidelity-loss list for capture engine " + engine);
        };
        return all.stream().filter(l -> l.phases().contains(phase)).toList();
    }

    /** {@code relation|key|column}, what a difference is matched on. */
    String id() {
        return relation + "|" + key + "|" + column;
    }

    @Override
    public String toString() {
        return relation + " " + key + " " + column + " = " + value + ": " + why;
    }
}
