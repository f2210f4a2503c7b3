package io.rdmarepl.e2e;

import static io.rdmarepl.e2e.FidelityLoss.BOTH;
import static io.rdmarepl.e2e.FidelityLoss.STREAM_ONLY;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What {@code capture.engine=debezium} does not carry exactly through the hostile schema (docs/data-fidelity.md
 * lists the same). Each entry is one (table, key, column) the comparison must find different; none of them
 * can be mended in our converter, because Debezium has lost the value before any converter runs.
 */
final class DebeziumLosses {
    private static final String TIMETZ = "Debezium's stream decoder moves a timetz to UTC before any converter runs: "
            + "the same instant, but the zone offset is lost, and timetz = compares the offset too (an initial copy is "
            + "exact)";
    private static final String INFINITE_INTERVAL = "pgjdbc's PGInterval, which Debezium reads every interval with "
            + "(copy and stream, before any converter), has no infinite interval: PostgreSQL 17's 'infinity' and "
            + "'-infinity' arrive as 0";

    /** Values that arrive changed. */
    static final List<FidelityLoss> LOSSES = build();

    /**
     * Values that stop capture for good instead (the shipper exits naming the value; nothing after them is shipped):
     * interval-limits.sql.
     */
    static final String INTERVAL_LIMITS_STOP = "For input string: \"2562047788\"";

    /** A timetz offset with seconds in the stream: timetz-offset-seconds.sql. */
    static final String TIMETZ_OFFSET_SECONDS_STOP = "Text '00:00:00.000001+15:59:59' could not be parsed";

    /**
     * A table with columns whose names differ only by case ({@code "Value"} and {@code "value"}): Debezium refuses
     * it whole when it reads the schema and the shipper exits naming it: case-twins.sql.
     */
    static final String CASE_TWINS_STOP = "Table 'public.case_twins' has columns that differ only by case";

    private DebeziumLosses() {
    }

    private static List<FidelityLoss> build() {
        List<FidelityLoss> losses = new ArrayList<>();
        for (int id : new int[] {9, 109}) {
            losses.add(new FidelityLoss("public.t_time", "(id)=(" + id + ")", "iv", "infinity", INFINITE_INTERVAL,
                    id < 100 ? BOTH : STREAM_ONLY));
            losses.add(new FidelityLoss("public.t_time", "(id)=(" + id + ")", "iv_ym", "-infinity", INFINITE_INTERVAL,
                    id < 100 ? BOTH : STREAM_ONLY));
        }
        losses.add(new FidelityLoss("public.t_time", "(id)=(10)", "d", "1582-10-10",
                "an initial copy reads dates through java.sql.Date, whose calendar has no 1582-10-05..14 (the "
                        + "Julian-Gregorian switch): it arrives as 1582-10-20; the stream carries it exactly", BOTH));
        Map<Integer, String> timetz = Map.of(101, "24:00:00-15:59", 102, "00:00:00+15:59", 103, "00:00:00.000001+15:59",
                104, "23:59:59.999999-15:59", 105, "12:00:00+05:45", 106, "02:45:00+13:45", 107, "23:59:59.999999+15:59",
                110, "12:00:00-12");
        timetz.forEach((id, value) -> losses.add(
                new FidelityLoss("public.t_time", "(id)=(" + id + ")", "tmtz", value, TIMETZ, STREAM_ONLY)));
        return List.copyOf(losses);
    }
}
