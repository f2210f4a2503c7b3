package io.rdmarepl.testsupport.compare;

/**
 * One way the replica differs from the primary.
 *
 * @param kind         what differs
 * @param relation     the table or sequence, qualified and quoted where SQL needs it: {@code public.t}, {@code "Odd"."T"}
 * @param key          the row's key as PostgreSQL prints one, {@code (id)=(7)}; null for a keyless table's row and
 *                     for differences that are not about a row
 * @param column       the column, for {@link Kind#COLUMN_DIFFERS}, {@link Kind#COLUMN_MISSING} and
 *                     {@link Kind#COLUMN_TYPE_DIFFERS}; else null
 * @param primaryValue the primary's side in its exact text form: a column value (null: SQL NULL), a whole row
 *                     ({@code ROW(...)::text}), a column type or a sequence position; null when the primary has none
 * @param replicaValue the replica's side, as {@code primaryValue}
 */
public record Difference(Kind kind, String relation, String key, String column, String primaryValue, String replicaValue) {
    /** Values longer than this are cut in {@link #toString()} (never in the record). */
    static final int SHOWN_VALUE_CHARS = 200;

    public enum Kind {
        /** The primary's table does not exist on the replica (or is not a table there). */
        TABLE_MISSING("table missing on the replica"),
        /** A column of the primary's table does not exist in the replica's; the other columns are still compared. */
        COLUMN_MISSING("column missing on the replica"),
        /** The column exists on both with different types ({@code format_type}); its values are still compared. */
        COLUMN_TYPE_DIFFERS("column type differs"),
        /** A row of the primary is not on the replica (counted as a multiset: one difference per missing copy). */
        ROW_MISSING("row missing on the replica"),
        /** A row of the replica is not on the primary (one difference per extra copy). */
        ROW_EXTRA("row extra on the replica"),
        /** The row with this key is on both, with a different value in this column. */
        COLUMN_DIFFERS("column differs"),
        /** The primary's sequence does not exist on the replica. */
        SEQUENCE_MISSING("sequence missing on the replica"),
        /** The sequence's (last_value, is_called) differ. */
        SEQUENCE_DIFFERS("sequence differs");

        private final String text;

        Kind(String text) {
            this.text = text;
        }

        /** @return e.g. "row missing on the replica" */
        public String text() {
            return text;
        }
    }

    /**
     * One line, e.g. {@code public.t: column differs at (id)=(7), column "bp": primary 'ab   ', replica 'a    '}.
     * Values are quoted as SQL literals, so SQL NULL (shown NULL) differs from the text 'NULL' and from ''.
     */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder(relation).append(": ").append(kind.text);
        switch (kind) {
            case TABLE_MISSING, SEQUENCE_MISSING -> {
            }
            case COLUMN_MISSING -> out.append(": ").append(Identifiers.quote(column));
            case COLUMN_TYPE_DIFFERS -> out.append(": ").append(Identifiers.quote(column)).append(" is ").append(primaryValue)
                    .append(" on the primary, ").append(replicaValue).append(" on the replica");
            case ROW_MISSING -> row(out, primaryValue);
            case ROW_EXTRA -> row(out, replicaValue);
            case COLUMN_DIFFERS -> out.append(" at ").append(key).append(", column ").append(Identifiers.quote(column))
                    .append(": primary ").append(literal(primaryValue)).append(", replica ").append(literal(replicaValue));
            case SEQUENCE_DIFFERS -> out.append(": primary ").append(primaryValue).append(", replica ").append(replicaValue);
        }
        return out.toString();
    }

    private void row(StringBuilder out, String row) {
        if (key != null) {
            out.append(": ").append(key).append(", row ").append(cut(row));
        } else {
            out.append(": ").append(cut(row));
        }
    }

    /** @return NULL, or the value as a SQL string literal ('it''s'), cut after {@value #SHOWN_VALUE_CHARS} characters */
    static String literal(String value) {
        if (value == null) {
            return "NULL";
        }
        return "'" + cut(value).replace("'", "''") + "'";
    }

    private static String cut(String value) {
        return value.length() <= SHOWN_VALUE_CHARS ? value
                : value.substring(0, SHOWN_VALUE_CHARS) + "... (" + value.length() + " characters)";
    }
}
