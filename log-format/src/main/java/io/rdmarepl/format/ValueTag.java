package io.rdmarepl.format;

/**
 * The type tag that starts every value on the wire. {@link #NULL} and {@link #UNCHANGED_TOAST} are
 * distinct on purpose: an unchanged TOASTed column must be left alone by the applier, a NULL must be written.
 * Types without a dedicated tag travel as {@link #TEXT_FALLBACK}: PostgreSQL's text form plus the type OID.
 */
public enum ValueTag {
    NULL(0, "null"),
    UNCHANGED_TOAST(1, "unchanged toast"),
    BOOL(2, "bool"),
    INT2(3, "int2"),
    INT4(4, "int4"),
    INT8(5, "int8"),
    FLOAT4(6, "float4"),
    FLOAT8(7, "float8"),
    NUMERIC(8, "numeric"),
    TEXT(9, "text"),
    BYTEA(10, "bytea"),
    DATE(11, "date"),
    TIME(12, "time"),
    TIMETZ(13, "timetz"),
    TIMESTAMP(14, "timestamp"),
    TIMESTAMPTZ(15, "timestamptz"),
    INTERVAL(16, "interval"),
    UUID(17, "uuid"),
    JSON(18, "json"),
    JSONB(19, "jsonb"),
    INET(20, "inet"),
    CIDR(21, "cidr"),
    MACADDR(22, "macaddr"),
    MACADDR8(23, "macaddr8"),
    ENUM(24, "enum"),
    TEXT_FALLBACK(25, "text fallback"),
    ARRAY(26, "array");

    private static final ValueTag[] BY_CODE = values();

    private final int code;
    private final String typeName;

    ValueTag(int code, String typeName) {
        this.code = code;
        this.typeName = typeName;
    }

    /** The wire code. */
    public int code() {
        return code;
    }

    /** The name used in error messages, e.g. {@code int4}. */
    public String typeName() {
        return typeName;
    }

    /** The tag for a wire code, or {@code null} if the code is unknown. */
    public static ValueTag ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /** True if this tag may be the element type of an array: any typed value except arrays themselves. */
    public boolean isArrayElementType() {
        return this != NULL && this != UNCHANGED_TOAST && this != ARRAY;
    }
}
