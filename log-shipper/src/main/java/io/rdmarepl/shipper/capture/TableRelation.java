package io.rdmarepl.shipper.capture;

import java.nio.ByteBuffer;

/** A published table as the change stream names it: its relation id, column-list version and Relation record. */
public interface TableRelation {
    int id();

    int version();

    /** Encodes this table's Relation record; returns its length. */
    int encodeRelation(ByteBuffer out, int offset, int maxLength);
}
