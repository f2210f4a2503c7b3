package io.rdmarepl.shipper.config;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * When the shipper starts shipping ({@code activation}). Every member host runs a shipper and an applier; the
 * shipper beside a member that is a standby now must not capture anything until that member becomes the primary,
 * so it waits for the coordinator's {@code POST /activate}.
 */
public enum Activation {
    /** Capture and ship from the start (a shipper beside the primary). */
    IMMEDIATE("immediate"),
    /** Serve only the admin endpoint until the coordinator activates this shipper (a shipper beside a standby). */
    ON_REQUEST("on-request");

    private final String text;

    Activation(String text) {
        this.text = text;
    }

    /** As written in {@code shipper.properties}. */
    public String text() {
        return text;
    }

    static Set<String> texts() {
        return Arrays.stream(values()).map(Activation::text).collect(Collectors.toSet());
    }

    static Activation of(String text) {
        return Arrays.stream(values()).filter(a -> a.text.equals(text)).findFirst().orElse(IMMEDIATE);
    }
}
