package io.rdmarepl.config;

import java.util.List;

/**
 * A configuration is invalid: every problem found, one per line, each naming its key, the value (secrets masked) and
 * the rule broken, under the name of the file (or of the settings) they are in:
 *
 * <pre>
 * shipper.properties: 2 problems:
 *   ship.buffer.events=1000: must be a power of two between 64 and 16777216
 *   heartbeat.intervall.ms: unknown key (did you mean heartbeat.interval.ms?)
 * </pre>
 */
public final class ConfigException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final transient List<String> problems;

    public ConfigException(String source, List<String> problems) {
        super(source + ": " + problems.size() + (problems.size() == 1 ? " problem" : " problems") + ":\n  "
                + String.join("\n  ", problems));
        this.source = source;
        this.problems = List.copyOf(problems);
    }

    /** The file, or what the settings are ({@code shipper configuration}). */
    public String source() {
        return source;
    }

    /** Each problem: {@code key=value: rule}, or {@code key: unknown key ...}. */
    public List<String> problems() {
        return problems;
    }
}
