package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.schema.SequenceTracker;
import io.rdmarepl.format.ValueTag;
import io.rdmarepl.format.codec.TupleView;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;

/**
 * Binds one column value of a decoded tuple to a statement parameter with its exact type. Every
 * placeholder carries an explicit cast to the replica column's type ({@code ?::numeric}), so text forms
 * from {@link PgText} land exactly; integers, floats, booleans and bytea bind natively. Reuses one
 * scratch builder: text values allocate only the String the driver needs.
 */
final class ValueBinder {
    private final StringBuilder scratch = new StringBuilder(64);

    void bind(PreparedStatement statement, int parameter, TupleView tuple, int column, long[] sequenceHolder)
            throws SQLException {
        ValueTag tag = tuple.tag(column);
        switch (tag) {
            case NULL -> statement.setNull(parameter, Types.OTHER);
            case BOOL -> statement.setBoolean(parameter, tuple.bool(column));
            case INT2 -> {
                short v = tuple.int2(column);
                observe(sequenceHolder, v);
                statement.setShort(parameter, v);
            }
            case INT4 -> {
                int v = tuple.int4(column);
                observe(sequenceHolder, v);
                statement.setInt(parameter, v);
            }
            case INT8 -> {
                long v = tuple.int8(column);
                observe(sequenceHolder, v);
                statement.setLong(parameter, v);
            }
            case BYTEA -> statement.setBytes(parameter, tuple.bytes(column));
            case ARRAY -> {
                scratch.setLength(0);
                statement.setString(parameter, PgText.appendArray(tuple.array(column), scratch).toString());
            }
            case UNCHANGED_TOAST -> throw new IllegalStateException("an unchanged TOAST value is never bound: column "
                    + column + " should have been left out of the statement");
            default -> {
                scratch.setLength(0);
                statement.setString(parameter, PgText.appendScalar(tuple, column, scratch).toString());
            }
        }
    }

    private static void observe(long[] holder, long value) {
        if (holder != null) {
            SequenceTracker.observe(holder, value);
        }
    }
}
