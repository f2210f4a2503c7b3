package io.rdmarepl.shipper.capture.pgoutput;

/**
 * One relation as its latest Relation message described it, with the log-format Relation record built from that
 * description, and what the decoder needs to decide when that record must go into a transaction:
 * {@link #generation()} counts the descriptions that changed something; {@code sentGeneration} is the one the
 * sink received last, in a committed transaction; {@code stagedStamp}/{@code stagedGeneration} say which
 * transaction buffer already holds the record of which generation.
 */
final class RelationEntry {
    private final int oid;
    private String schema;
    private String table;
    private String[] columnNames;
    private int[] typeOids;
    private String[] typeNames;
    private ColumnKind[] kinds;
    private byte[] record;
    private boolean ignored;
    private int generation;
    int sentGeneration;
    long stagedStamp;
    int stagedGeneration;

    RelationEntry(int oid) {
        this.oid = oid;
    }

    /**
     * Takes a new description; the generation grows only if the Relation record or a column's kind changed (pgoutput
     * sends the same description again after every cache invalidation).
     */
    void describe(String schema, String table, String[] columnNames, int[] typeOids, String[] typeNames,
                  ColumnKind[] kinds, byte[] record) {
        if (this.record != null && java.util.Arrays.equals(this.record, record) && java.util.Arrays.equals(this.kinds, kinds)) {
            return;
        }
        this.schema = schema;
        this.table = table;
        this.columnNames = columnNames;
        this.typeOids = typeOids;
        this.typeNames = typeNames;
        this.kinds = kinds;
        this.record = record;
        this.ignored = io.rdmarepl.shipper.config.InternalSchema.is(schema); // once here, not on every row
        generation++;
    }

    int oid() {
        return oid;
    }

    /**
     * A table of the applier's bookkeeping schema ({@link io.rdmarepl.shipper.config.InternalSchema}): a FOR ALL TABLES
     * publication includes it on a member that was a standby, and it is never shipped.
     */
    boolean ignored() {
        return ignored;
    }

    int generation() {
        return generation;
    }

    int columnCount() {
        return kinds.length;
    }

    ColumnKind kind(int column) {
        return kinds[column];
    }

    int typeOid(int column) {
        return typeOids[column];
    }

    String columnName(int column) {
        return columnNames[column];
    }

    String typeName(int column) {
        return typeNames[column];
    }

    /** The encoded log-format Relation record of the current generation; never modified. */
    byte[] record() {
        return record;
    }

    /** {@code schema.table}, for messages. */
    String qualifiedName() {
        return schema + "." + table;
    }
}
