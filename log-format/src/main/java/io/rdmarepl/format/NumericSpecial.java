package io.rdmarepl.format;

/** The non-finite values of PostgreSQL's {@code numeric}; {@link #NONE} marks a finite value. */
public enum NumericSpecial {
    NONE(0),
    NAN(1),
    POSITIVE_INFINITY(2),
    NEGATIVE_INFINITY(3);

    private final int code;

    NumericSpecial(int code) {
        this.code = code;
    }

    /** The wire code. */
    public int code() {
        return code;
    }

    /** The special for a wire code, or {@code null} if the code is unknown. */
    public static NumericSpecial ofCode(int code) {
        switch (code) {
            case 0: return NONE;
            case 1: return NAN;
            case 2: return POSITIVE_INFINITY;
            case 3: return NEGATIVE_INFINITY;
            default: return null;
        }
    }
}
