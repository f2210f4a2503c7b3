package io.rdmarepl.config;

/**
 * When a shipper or an applier starts its work ({@code activation}). Every member host runs both; the ones not in
 * use (a shipper beside a standby, an applier beside the primary) must not touch their database nor hold a ring
 * until the coordinator's {@code POST /activate} says the member's role changed.
 */
public enum Activation {
    /** At process start (a shipper beside the primary, an applier beside a standby). */
    IMMEDIATE("immediate"),
    /** Serve only the admin endpoint until the coordinator activates the role. */
    ON_REQUEST("on-request");

    private final String text;

    Activation(String text) {
        this.text = text;
    }

    /** As written in the properties file and shown in /status. */
    public String text() {
        return text;
    }
}
