package io.rdmarepl.e2e;

import java.util.List;

/**
 * What {@code capture.engine=debezium} does not carry exactly through the hostile schema (the README's "Data
 * fidelity" lists the same). Each entry is one (table, key, column) the comparison must find different.
 */
final class DebeziumLosses {
    /** Values that arrive changed. */
    static final List<FidelityLoss> LOSSES = List.of(
            new FidelityLoss("public.t_time", "(id)=(9)", "iv", "infinity",
                    "pgjdbc's PGInterval (Debezium reads every interval with it, copy and stream) has no infinite "
                            + "interval and reads 'infinity' as 0, before any converter runs", FidelityLoss.BOTH),
            new FidelityLoss("public.t_time", "(id)=(9)", "iv_ym", "-infinity", "the same: '-infinity' arrives as 0",
                    FidelityLoss.BOTH),
            new FidelityLoss("public.t_time", "(id)=(10)", "d", "1582-10-10",
                    "a copy reads dates through java.sql.Date, whose calendar has no 1582-10-05..14 (the Julian-Gregorian "
                            + "switch): it arrives as 1582-10-20; the stream carries it exactly", FidelityLoss.COPY_ONLY),
            new FidelityLoss("public.t_document", "(id)=(3)", "x", "<?xml version=\"1.0\"?><r>é😀</r>",
                    "PostgreSQL's xml output function, which pgoutput and a copy write values with, drops an XML "
                            + "declaration that says only version 1.0 (PostgreSQL's own logical replication loses it too)",
                    FidelityLoss.BOTH));

    /**
     * Values that stop capture for good instead (the shipper exits naming the value; nothing after them is shipped):
     * interval-limits.sql.
     */
    static final String INTERVAL_LIMITS_STOP = "For input string: \"2562047788\"";

    /**
     * A table with columns whose names differ only by case ({@code "Value"} and {@code "value"}): Debezium refuses
     * it whole when it reads the schema (at every start) and the shipper exits naming it: case-twins.sql.
     */
    /** A timetz offset with seconds in the stream: timetz-offset-seconds.sql. */
    static final String TIMETZ_OFFSET_SECONDS_STOP = "Text '00:00:00.000001+15:59:59' could not be parsed";

    static final String CASE_TWINS_STOP = "Table 'public.case_twins' has columns that differ only by case";

    private DebeziumLosses() {
    }
}
