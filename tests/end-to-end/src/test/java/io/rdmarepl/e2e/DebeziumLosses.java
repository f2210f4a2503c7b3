package io.rdmarepl.e2e;

import java.util.List;

/**
 * What {@code capture.engine=debezium} does not carry exactly through the hostile schema (the README's "Data
 * fidelity" lists the same). Each entry is one (table, key, column) the comparison must find different.
 */
final class DebeziumLosses {
    /** Values that arrive changed. */
    static final List<FidelityLoss> LOSSES = List.of();

    /**
     * Values that stop capture for good instead (the shipper exits naming the value; nothing after them is shipped):
     * interval-limits.sql.
     */
    static final String INTERVAL_LIMITS_STOP = "For input string: \"2562047788\"";

    /**
     * A table with columns whose names differ only by case ({@code "Value"} and {@code "value"}): Debezium refuses
     * it whole when it reads the schema (at every start) and the shipper exits naming it: case-twins.sql.
     */
    static final String CASE_TWINS_STOP = "Table 'public.case_twins' has columns that differ only by case";

    private DebeziumLosses() {
    }
}
