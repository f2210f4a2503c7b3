package io.rdmarepl.shipper.capture;

import java.nio.ByteBuffer;
import org.apache.kafka.connect.source.SourceRecord;

/** What capture needs from the encoder: a row record, and the relation it refers to. */
public interface ChangeEncoding {
    /** Relation id of the table {@code record} changes. */
    int relationId(SourceRecord record);

    /** Version of that relation's column list; changes when the table's columns change. */
    int relationVersion(SourceRecord record);

    /** Encodes the Relation record of {@code record}'s table; returns its length. */
    int encodeRelation(SourceRecord record, ByteBuffer out, int offset, int maxLength);

    /** The table as it is now, for the initial copy, which empties every published table on the standby first. */
    TableRelation currentRelation(String schema, String table);

    /** Encodes the row (or truncate) record; returns its length. */
    int encodeRow(SourceRecord record, ByteBuffer out, int offset, int maxLength);
}
