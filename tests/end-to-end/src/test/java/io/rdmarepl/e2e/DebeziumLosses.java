package io.rdmarepl.e2e;

import java.util.List;

/**
 * What {@code capture.engine=debezium} does not carry exactly through the hostile schema (the README's "Data
 * fidelity" lists the same). Each entry is one (table, key, column) the comparison must find different.
 */
final class DebeziumLosses {
    /** Values that arrive changed. */
    static final List<FidelityLoss> LOSSES = List.of();

    /**
     * Values that stop capture for good instead (the shipper exits naming the value; nothing after them is shipped):
     * interval-limits.sql.
     */
    static final String INTERVAL_LIMITS_STOP = "For input string: \"2562047788\"";

    private DebeziumLosses() {
    }
}
