package io.rdmarepl.shipper.config;

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
}
