package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.format.ValueTag;
import io.rdmarepl.format.codec.ValueDescriptor;

/**
 * How a column's text values go into log-format, decided once per column when its Relation message arrives.
 * Integers and booleans are parsed into their native tags (the applier's sequence tracking reads integers);
 * every other type keeps the walsender's text output as {@link ValueTag#TEXT_FALLBACK} with the type OID: exact by
 * construction, the applier casts the text to the replica column's type.
 */
enum ColumnKind {
    TEXT(ValueTag.TEXT_FALLBACK),
    BOOL(ValueTag.BOOL),
    INT2(ValueTag.INT2),
    INT4(ValueTag.INT4),
    INT8(ValueTag.INT8);

    private static final int BOOL_OID = 16;
    private static final int INT8_OID = 20;
    private static final int INT2_OID = 21;
    private static final int INT4_OID = 23;

    private final ValueTag tag;
    private final int encodedLength;

    ColumnKind(ValueTag tag) {
        this.tag = tag;
        this.encodedLength = ValueDescriptor.fixedLength(tag);
    }

    ValueTag tag() {
        return tag;
    }

    /** Encoded length of a value of {@code textLength} text bytes. */
    long encodedLength(int textLength) {
        return this == TEXT ? ValueDescriptor.FALLBACK_BYTES_OFFSET + (long) textLength : encodedLength;
    }

    /** The kind of a built-in type OID: native for bool, int2, int4, int8, text for everything else. */
    static ColumnKind ofTypeOid(int typeOid) {
        switch (typeOid) {
            case BOOL_OID: return BOOL;
            case INT2_OID: return INT2;
            case INT4_OID: return INT4;
            case INT8_OID: return INT8;
            default: return TEXT;
        }
    }

    /**
     * The kind of a type a Type message describes: for a domain, pgoutput names its base type, so a domain over
     * {@code pg_catalog.int4} is parsed as an int4 (its text output is the base type's).
     */
    static ColumnKind ofBaseTypeName(String namespace, String name) {
        if (!namespace.isEmpty() && !"pg_catalog".equals(namespace)) {
            return TEXT;
        }
        switch (name) {
            case "bool": return BOOL;
            case "int2": return INT2;
            case "int4": return INT4;
            case "int8": return INT8;
            default: return TEXT;
        }
    }
}
