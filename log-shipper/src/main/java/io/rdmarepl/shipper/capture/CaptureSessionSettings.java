package io.rdmarepl.shipper.capture;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Session settings every Debezium connection runs with, whatever the primary's server, database or role defaults
 * say: the snapshot reads and, above all, the walsender behind the replication connection, which writes every
 * pgoutput value with its output function under these settings. Sent as the connection's {@code options}
 * ({@code -c name=value}), after any the operator set, so they win. pgjdbc already sends DateStyle ISO and the
 * JVM's TimeZone itself; these are what it leaves to the server:
 *
 * <table>
 *   <caption>Settings and why</caption>
 *   <tr><th>setting</th><th>value</th><th>why</th></tr>
 *   <tr><td>IntervalStyle</td><td>postgres</td><td>pgjdbc's PGInterval, which Debezium parses every interval with,
 *       reads only the postgres, postgres_verbose and iso_8601 styles: under {@code sql_standard} it drops years,
 *       months and days without a word ({@code +1-2 -3 +4:05:06} reads as 4:05:06). Intervals inside arrays,
 *       composites and ranges travel as text the applier reads under IntervalStyle postgres, where
 *       {@code sql_standard}'s {@code -1 2:00:00} (minus one day and two hours) would read as -1 day +2 hours.</td></tr>
 *   <tr><td>extra_float_digits</td><td>3</td><td>under {@code 0} float8 is written with 15 significant digits and
 *       float4 with 6: 1.7976931348623157e308 arrived as Infinity (Java reads 1.79769313486232e+308 as that),
 *       3.4028235e38 as 3.40282e38, and the points of geometric types were rounded the same way</td></tr>
 *   <tr><td>bytea_output</td><td>hex</td><td>the encoder reads bytea array elements in hex; under {@code escape} a
 *       bytea[] stopped capture</td></tr>
 * </table>
 */
public final class CaptureSessionSettings {
    /** The driver property (pgjdbc) that carries backend command-line options. */
    public static final String OPTIONS_PROPERTY = "options";

    private static final Map<String, String> SETTINGS = build();

    private CaptureSessionSettings() {
    }

    /** The settings, in a stable order. */
    public static Map<String, String> settings() {
        return SETTINGS;
    }

    /** {@code operatorOptions} (may be null or blank) followed by a {@code -c name=value} per setting. */
    public static String options(String operatorOptions) {
        StringBuilder options = new StringBuilder(operatorOptions == null ? "" : operatorOptions.strip());
        SETTINGS.forEach((name, value) -> {
            if (!options.isEmpty()) {
                options.append(' ');
            }
            options.append("-c ").append(name).append('=').append(value);
        });
        return options.toString();
    }

    private static Map<String, String> build() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("IntervalStyle", "postgres");
        settings.put("extra_float_digits", "3");
        settings.put("bytea_output", "hex");
        return java.util.Collections.unmodifiableMap(settings);
    }
}
