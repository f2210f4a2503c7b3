package io.rdmarepl.applier.config;

import java.util.List;

/** The configuration is invalid: every problem found, each naming key, value (secrets masked) and rule. */
public final class ConfigException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final transient List<String> problems;

    public ConfigException(List<String> problems) {
        super(problems.size() + " configuration problem" + (problems.size() == 1 ? "" : "s") + ": "
                + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
