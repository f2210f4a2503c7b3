package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.format.Lsn;

/**
 * What the decoder is looking at, kept up to date with plain field writes (no allocation) so that a failure can
 * say where it happened: the message's LSN and name, its relation and column. Builds the exceptions.
 */
final class DecodeContext {
    private long lsn;
    private String message;
    private RelationEntry relation;
    private long relationOid = -1;
    private String relationName;
    private int column = -1;
    private String columnName;

    /** Starts a message at {@code lsn}; forgets the relation and column of the previous one. */
    void startMessage(long lsn) {
        this.lsn = lsn;
        this.message = "message";
        this.relation = null;
        this.relationOid = -1;
        this.relationName = null;
        this.column = -1;
        this.columnName = null;
    }

    void message(String name) {
        this.message = name;
    }

    /** The relation OID the message names, before it is looked up. */
    void relationOid(int oid) {
        this.relationOid = Integer.toUnsignedLong(oid);
        this.relation = null;
    }

    /** The relation, once found. */
    void relation(RelationEntry entry) {
        this.relation = entry;
    }

    /** The relation being described by a Relation message, once its name is read. */
    void relationName(String qualifiedName) {
        this.relationName = qualifiedName;
    }

    /** The column being read: its position in the relation; -1 when between columns. */
    void column(int index) {
        this.column = index;
        this.columnName = null;
    }

    /** The column of a Relation message being read, once its name is known. */
    void columnName(String name) {
        this.columnName = name;
    }

    long lsn() {
        return lsn;
    }

    PgOutputException fail(String what) {
        return fail(what, null);
    }

    PgOutputException fail(String what, Throwable cause) {
        String relationText = relationText();
        String columnText = columnText();
        StringBuilder text = new StringBuilder(128).append("pgoutput ").append(message).append(" at LSN ");
        Lsn.appendTo(lsn, text);
        if (relationText != null) {
            text.append(", relation ").append(relationText);
        }
        if (columnText != null) {
            text.append(", column ").append(columnText);
        }
        text.append(": ").append(what);
        return new PgOutputException(text.toString(), lsn, relationText, columnText, cause);
    }

    private String relationText() {
        if (relation != null) {
            return relation.qualifiedName();
        }
        if (relationName != null) {
            return relationName;
        }
        return relationOid >= 0 ? "OID " + relationOid : null;
    }

    private String columnText() {
        if (columnName != null) {
            return columnName;
        }
        if (column < 0) {
            return null;
        }
        if (relation != null && column < relation.columnCount()) {
            return relation.columnName(column) + " (" + relation.typeName(column) + ")";
        }
        return "#" + (column + 1);
    }
}
