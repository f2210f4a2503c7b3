package io.rdmarepl.format;

/**
 * What an Update or Delete carries about the row before the change, as pgoutput tells it:
 * nothing, the replica identity key columns only, or the full old row (REPLICA IDENTITY FULL).
 */
public enum OldTupleKind {
    NONE(0),
    KEY(1),
    FULL(2);

    private final int code;

    OldTupleKind(int code) {
        this.code = code;
    }

    /** The wire code, stored in the record header's flags. */
    public int code() {
        return code;
    }

    /** The kind for a wire code, or {@code null} if the code is unknown. */
    public static OldTupleKind ofCode(int code) {
        switch (code) {
            case 0: return NONE;
            case 1: return KEY;
            case 2: return FULL;
            default: return null;
        }
    }
}
