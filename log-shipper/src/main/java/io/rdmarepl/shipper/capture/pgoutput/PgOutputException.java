package io.rdmarepl.shipper.capture.pgoutput;

/**
 * A pgoutput message the decoder cannot decode: truncated, of an unknown type, out of order, about a relation it
 * was never told of, with a column count its relation does not have, or with a value that is not what its type
 * says. The message names the LSN of the message (the XLogData start, as {@code X/Y}), the relation and column
 * when known, and what was unexpected, e.g.
 * {@code pgoutput Insert at LSN 0/1A2B3C8, relation public.orders, column qty (int4): text '12x' is not an int4}.
 * Decoding cannot go on past it: nothing is skipped.
 */
public final class PgOutputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final long lsn;
    private final String relation;
    private final String column;

    PgOutputException(String message, long lsn, String relation, String column, Throwable cause) {
        super(message, cause);
        this.lsn = lsn;
        this.relation = relation;
        this.column = column;
    }

    /** The XLogData start of the message that failed. */
    public long lsn() {
        return lsn;
    }

    /** {@code schema.table}, {@code OID n} when only the OID is known, or null. */
    public String relation() {
        return relation;
    }

    /** The column's name, {@code column n} when only its position is known, or null. */
    public String column() {
        return column;
    }
}
