package io.rdmarepl.applier.apply;

/**
 * A change showed that the replica already differs from the primary: an UPDATE or DELETE found no row, or a
 * streamed INSERT met a row with its key. Applying on would hide the difference (PostgreSQL's own apply worker
 * only logs these), so with {@code apply.on.divergence=pause} apply stops at the transaction, naming table and
 * key, until the operator repairs the replica. Stackless: an expected condition, reported by its message.
 */
final class ReplicaDivergedException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String table;

    ReplicaDivergedException(String table, String message) {
        super(message, null, false, false);
        this.table = table;
    }

    /** The replica table, quoted and schema-qualified. */
    String table() {
        return table;
    }
}
