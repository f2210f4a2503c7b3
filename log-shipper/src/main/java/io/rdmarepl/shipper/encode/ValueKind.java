package io.rdmarepl.shipper.encode;

import io.rdmarepl.format.ValueTag;

/**
 * How the encoder writes a column's values, decided once per column from its base type (domains resolved), so
 * the per-row path is a switch on this enum. {@link #FALLBACK} is PostgreSQL's text form tagged with the type OID.
 */
public enum ValueKind {
    BOOL(ValueTag.BOOL),
    INT2(ValueTag.INT2),
    INT4(ValueTag.INT4),
    INT8(ValueTag.INT8),
    FLOAT4(ValueTag.FLOAT4),
    FLOAT8(ValueTag.FLOAT8),
    NUMERIC(ValueTag.NUMERIC),
    TEXT(ValueTag.TEXT),
    BYTEA(ValueTag.BYTEA),
    DATE(ValueTag.DATE),
    TIME(ValueTag.TIME),
    TIMETZ(ValueTag.TIMETZ),
    TIMESTAMP(ValueTag.TIMESTAMP),
    TIMESTAMPTZ(ValueTag.TIMESTAMPTZ),
    INTERVAL(ValueTag.INTERVAL),
    UUID(ValueTag.UUID),
    JSON(ValueTag.JSON),
    JSONB(ValueTag.JSONB),
    INET(ValueTag.INET),
    CIDR(ValueTag.CIDR),
    MACADDR(ValueTag.MACADDR),
    MACADDR8(ValueTag.MACADDR8),
    ENUM(ValueTag.ENUM),
    ARRAY(ValueTag.ARRAY),
    FALLBACK(ValueTag.TEXT_FALLBACK);

    private final ValueTag tag;

    ValueKind(ValueTag tag) {
        this.tag = tag;
    }

    ValueTag tag() {
        return tag;
    }

    /** The kind of a built-in base type OID; enums are decided by the caller ({@code typtype = 'e'}). */
    static ValueKind ofBaseType(int oid) {
        switch (oid) {
            case 16: return BOOL;
            case 21: return INT2;
            case 23: return INT4;
            case 20: return INT8;
            case 700: return FLOAT4;
            case 701: return FLOAT8;
            case 1700: return NUMERIC;
            case 25:   // text
            case 1043: // varchar
            case 1042: // bpchar
            case 19:   // name
            case 18:   // "char"
                return TEXT;
            case 17: return BYTEA;
            case 1082: return DATE;
            case 1083: return TIME;
            case 1266: return TIMETZ;
            case 1114: return TIMESTAMP;
            case 1184: return TIMESTAMPTZ;
            case 1186: return INTERVAL;
            case 2950: return UUID;
            case 114: return JSON;
            case 3802: return JSONB;
            case 869: return INET;
            case 650: return CIDR;
            case 829: return MACADDR;
            case 774: return MACADDR8;
            default: return FALLBACK;
        }
    }

    /**
     * True if array elements of this kind are parsed from the array's text into a typed array. Date/time and
     * interval elements are not: their text depends on DateStyle/IntervalStyle and the array stays exact as a
     * whole text fallback instead.
     */
    boolean typedArrayElement() {
        switch (this) {
            case BOOL: case INT2: case INT4: case INT8: case FLOAT4: case FLOAT8: case NUMERIC: case TEXT:
            case BYTEA: case UUID: case JSON: case JSONB: case INET: case CIDR: case MACADDR: case MACADDR8: case ENUM:
                return true;
            default:
                return false;
        }
    }
}
