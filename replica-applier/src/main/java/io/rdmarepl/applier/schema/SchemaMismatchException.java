package io.rdmarepl.applier.schema;

/**
 * The replica's schema cannot take a change: a missing table or column, a row with no key to find it by.
 * Apply pauses at the transaction and retries until the operator fixes the replica. Stackless: an
 * expected condition, reported by its message.
 */
public final class SchemaMismatchException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String table;
    private final String column;

    public SchemaMismatchException(String table, String column, String message) {
        super(message, null, false, false);
        this.table = table;
        this.column = column;
    }

    /** The replica table, quoted and schema-qualified. */
    public String table() {
        return table;
    }

    /** The column, or null when the whole table is the problem. */
    public String column() {
        return column;
    }
}
