package io.rdmarepl.shipper.config;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Who runs the lease guard ({@code fence.guard}): the process that fences the primary once the shipper's lease ran
 * out, and which outlives the shipper to do so.
 */
public enum GuardMode {
    /** The shipper starts one (in a session of its own) when none runs, and adopts one that runs. */
    PROCESS("process"),
    /** One started apart ({@code rdmarepl lease-guard}, its systemd unit) must run; the shipper refuses to start without. */
    EXTERNAL("external");

    private final String text;

    GuardMode(String text) {
        this.text = text;
    }

    /** As written in the properties file and shown in /status. */
    public String text() {
        return text;
    }

    public static Set<String> texts() {
        return Arrays.stream(values()).map(GuardMode::text).collect(Collectors.toSet());
    }

    /** The mode written as {@code text}; {@link #PROCESS} for anything else (the config reader reports it). */
    public static GuardMode of(String text) {
        return Arrays.stream(values()).filter(m -> m.text.equals(text)).findFirst().orElse(PROCESS);
    }
}
