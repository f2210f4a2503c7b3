package io.rdmarepl.shipper.capture;

import org.apache.kafka.connect.data.Struct;

/**
 * Logical decoding messages ({@code pg_logical_emit_message}), and the one kind the shipper acts on: the marker.
 *
 * <p>Debezium (pgoutput) hands every message over as a record on {@code <topic prefix>.message} whose value has
 * {@code op = "m"} and a {@code message} struct {@code {prefix, content}}; a transactional one comes between its
 * transaction's BEGIN and END. A transaction holding a marker ({@code pg_logical_emit_message(true, '}{@value #PREFIX}{@code ', ...)})
 * is shipped even when it changed no captured row: as an empty transaction (Begin, Commit) at its commit LSN, so
 * the standby's applied LSN moves past it. The coordinator proves a standby caught up that way: it emits a marker on
 * the fenced primary and waits until the standby's applied LSN reaches the LSN {@code pg_logical_emit_message} returned.
 * Before the marker's transaction is handed over, the primary's sequences are read afresh and shipped ahead of it
 * ({@link SequenceSync#beforeMarker}): caught up includes the fenced primary's final sequence states.
 *
 * <p>Messages with any other prefix belong to someone else and are ignored, as are non-transactional messages
 * (they have no commit to place them at).
 */
public final class MarkerMessage {
    /** Prefix of the marker messages; any other prefix is ignored. */
    public static final String PREFIX = io.rdmarepl.format.CatchUpMarkers.PREFIX;

    /** Debezium's {@code op} of a logical decoding message. */
    static final String OPERATION = "m";

    private MarkerMessage() {
    }

    /** Whether {@code value} (a record value with an {@code op} field) is a logical decoding message. */
    static boolean isMessage(Struct value) {
        return OPERATION.equals(value.getString("op"));
    }

    /** Whether the message {@code value} is a marker. */
    static boolean isMarker(Struct value) {
        Struct message = value.schema().field("message") != null ? value.getStruct("message") : null;
        return message != null && PREFIX.equals(message.getString("prefix"));
    }
}
