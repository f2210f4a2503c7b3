package io.rdmarepl.applier.config;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * When an applier starts following its primary. Every member host runs an applier, but the one beside the
 * current primary must not touch its database (no read-only guard, no position table) nor hold its ring:
 * it waits until the coordinator activates it.
 */
public enum Activation {
    /** At process start: read-only guard, position table and ring at once. */
    IMMEDIATE("immediate"),
    /** Only when the coordinator asks ({@code POST /activate}); until then the replica and the ring stay untouched. */
    ON_REQUEST("on-request");

    private final String text;

    Activation(String text) {
        this.text = text;
    }

    /** The value as written in {@code applier.properties} and shown in /status. */
    public String text() {
        return text;
    }

    static Set<String> texts() {
        return Arrays.stream(values()).map(Activation::text).collect(Collectors.toSet());
    }

    /** The activation written as {@code text}; {@link #IMMEDIATE} for anything else (the reader reports it). */
    static Activation ofText(String text) {
        return Arrays.stream(values()).filter(a -> a.text.equals(text)).findFirst().orElse(IMMEDIATE);
    }
}
