package io.rdmarepl.shipper.capture.pgoutput;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The settings every walsender session of ours runs with, whatever the server's or the role's defaults, so that
 * the text values pgoutput sends (the walsender's own output functions) come in one fixed, exact form: ISO dates,
 * {@code postgres} intervals, shortest-exact floats, hex bytea, UTC time stamps. They travel in the StartupMessage's
 * {@code options} parameter, which the server splits as a command line ({@code pg_split_opts}): arguments are
 * separated by white space, and a backslash makes the next character literal (so a space inside a value is
 * {@code \ } and a backslash {@code \\}).
 */
public final class SessionSettings {
    /** Name to value, in the order they are sent. */
    public static final Map<String, String> FIXED;

    static {
        Map<String, String> fixed = new LinkedHashMap<>();
        fixed.put("DateStyle", "ISO");
        fixed.put("IntervalStyle", "postgres");
        fixed.put("extra_float_digits", "3");
        fixed.put("bytea_output", "hex");
        fixed.put("TimeZone", "UTC");
        FIXED = java.util.Collections.unmodifiableMap(fixed);
    }

    private SessionSettings() {
    }

    /** @return the value of the {@code options} startup parameter: {@code -c name=value} for each setting */
    public static String options(Map<String, String> settings) {
        StringBuilder options = new StringBuilder();
        for (Map.Entry<String, String> setting : settings.entrySet()) {
            if (options.length() > 0) {
                options.append(' ');
            }
            options.append("-c ");
            escape(setting.getKey(), options);
            options.append('=');
            escape(setting.getValue(), options);
        }
        return options.toString();
    }

    /** Backslash before every white-space character and every backslash, as {@code pg_split_opts} reads them. */
    static void escape(String text, StringBuilder out) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0B) {
                out.append('\\');
            }
            out.append(c);
        }
    }
}
