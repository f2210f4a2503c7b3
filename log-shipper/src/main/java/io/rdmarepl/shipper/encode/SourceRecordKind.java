package io.rdmarepl.shipper.encode;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * What a record from the Debezium engine is, so the pipeline can route it without guessing:
 *
 * <ul>
 *   <li>{@link #TRANSACTION_BEGIN} / {@link #TRANSACTION_END}: with {@code provide.transaction.metadata=true},
 *       on topic {@code <prefix>.transaction}, value schema {@code io.debezium.connector.common.TransactionMetadataValue},
 *       field {@code status} = BEGIN / END, {@code id} = {@code "<txId>:<lsn>"}, END has {@code event_count}.</li>
 *   <li>{@link #HEARTBEAT}: topic {@code __debezium-heartbeat.<prefix>}, value schema
 *       {@code io.debezium.connector.common.Heartbeat}; its source offset carries {@code lsn}.</li>
 *   <li>{@link #CHANGE}: a data-change envelope (value has {@code op}): c, u, d, r (snapshot read), t (truncate);
 *       give it to {@link ChangeEventEncoder}.</li>
 *   <li>{@link #MESSAGE}: a logical decoding message ({@code pg_logical_emit_message}) on {@code <prefix>.message}:
 *       {@code op} = m, no row (see {@code capture.MarkerMessage}).</li>
 *   <li>{@link #TOMBSTONE}: null value (only with {@code tombstones.on.delete=true}); ignore.</li>
 *   <li>{@link #OTHER}: anything else; ignore or log.</li>
 * </ul>
 */
public enum SourceRecordKind {
    TRANSACTION_BEGIN,
    TRANSACTION_END,
    HEARTBEAT,
    CHANGE,
    MESSAGE,
    TOMBSTONE,
    OTHER;

    /** Classifies {@code record}; allocation-free. */
    public static SourceRecordKind of(SourceRecord record) {
        Object value = record.value();
        if (value == null) {
            return TOMBSTONE;
        }
        if (!(value instanceof Struct struct)) {
            return OTHER;
        }
        Schema schema = struct.schema();
        if (schema.field("op") != null) {
            return "m".equals(struct.getString("op")) ? MESSAGE : CHANGE;
        }
        String name = schema.name();
        if (name != null && name.endsWith(".TransactionMetadataValue") || schema.field("status") != null
            && schema.field("event_count") != null) {
            String status = struct.getString("status");
            return "BEGIN".equals(status) ? TRANSACTION_BEGIN : "END".equals(status) ? TRANSACTION_END : OTHER;
        }
        if (name != null && name.endsWith(".Heartbeat")) {
            return HEARTBEAT;
        }
        String topic = record.topic();
        return topic != null && topic.startsWith("__debezium-heartbeat") ? HEARTBEAT : OTHER;
    }
}
