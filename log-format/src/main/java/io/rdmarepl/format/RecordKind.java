package io.rdmarepl.format;

/** The kinds of change record, with their wire codes (the header's {@code kind} byte). */
public enum RecordKind {
    BEGIN(1, "Begin"),
    COMMIT(2, "Commit"),
    RELATION(3, "Relation"),
    INSERT(4, "Insert"),
    UPDATE(5, "Update"),
    DELETE(6, "Delete"),
    TRUNCATE(7, "Truncate"),
    HEARTBEAT(8, "Heartbeat"),
    SEQUENCE(9, "Sequence"),
    /**
     * Rows of an initial copy as the primary's {@code COPY ... TO STDOUT} text, unparsed (added 2026-12: an applier
     * older than this kind refuses it as {@code unknown record kind 10} and pauses, applying nothing).
     */
    COPY_CHUNK(10, "CopyChunk");

    /** The highest code this build knows; a record with a higher one was written by a newer shipper. */
    public static final int HIGHEST_CODE = 10;

    private static final RecordKind[] BY_CODE = new RecordKind[HIGHEST_CODE + 1];

    static {
        for (RecordKind kind : values()) {
            BY_CODE[kind.code] = kind;
        }
    }

    private final int code;
    private final String displayName;

    RecordKind(int code, String displayName) {
        this.code = code;
        this.displayName = displayName;
    }

    /** The wire code. */
    public int code() {
        return code;
    }

    /** The name used in error messages, e.g. {@code Insert}. */
    public String displayName() {
        return displayName;
    }

    /** The kind for a wire code, or {@code null} if the code is unknown. */
    public static RecordKind ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /** True for Insert, Update and Delete. */
    public boolean isRowChange() {
        return this == INSERT || this == UPDATE || this == DELETE;
    }
}
