package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.schema.TableMapping;
import io.rdmarepl.format.codec.RecordDecoder;
import io.rdmarepl.format.codec.RecordHandler;
import io.rdmarepl.format.codec.RowChangeView;
import io.rdmarepl.format.codec.TupleView;
import java.nio.ByteBuffer;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Binds a row change, read again from the group's log, to the parameters of its batch's statement and adds it to
 * the JDBC batch. Binding when the batch is sent, not when the change arrives, lets a later change of the same row
 * replace an earlier one in the batch ({@link BatchingStatement#supersede}). A decoder of its own: the group's
 * decoder may be in the middle of a record when a batch is sent.
 */
final class RowBinder implements RecordHandler {
    private final RecordDecoder decoder = new RecordDecoder();
    private final ValueBinder values = new ValueBinder();
    private BatchingStatement target;
    private PreparedStatement into;
    private int first;
    private boolean whereOnly;
    private SQLException failure;

    /** Binds the change at {@code offset} of {@code log} to {@code statement} and adds it to its JDBC batch. */
    void add(BatchingStatement statement, ByteBuffer log, int offset, int end) throws SQLException {
        bind(statement, statement.statement(), log, offset, end);
        statement.statement().addBatch();
    }

    /** Binds the change at {@code offset} of {@code log}, of {@code statement}'s shape, to the first parameters of {@code into}. */
    void bind(BatchingStatement statement, PreparedStatement into, ByteBuffer log, int offset, int end) throws SQLException {
        bind(statement, into, log, offset, end, 1, false);
    }

    /**
     * Binds from parameter {@code first} on: the shape's values and where columns, or ({@code whereOnly}) the where
     * columns alone (to look the row up).
     */
    void bind(BatchingStatement statement, PreparedStatement into, ByteBuffer log, int offset, int end, int first,
              boolean whereOnly) throws SQLException {
        target = statement;
        this.into = into;
        this.first = first;
        this.whereOnly = whereOnly;
        failure = null;
        decoder.decode(log, offset, end - offset, this);
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void onInsert(RowChangeView insert) {
        bind(target.shape().values(), insert.newTuple(), first);
    }

    @Override
    public void onUpdate(RowChangeView update) {
        StatementShape shape = target.shape();
        int next = whereOnly ? first : bind(shape.values(), update.newTuple(), first);
        bind(shape.where(), shape.whereFromOld() ? update.oldTuple() : update.newTuple(), next);
    }

    @Override
    public void onDelete(RowChangeView delete) {
        bind(target.shape().where(), delete.oldTuple(), first);
    }

    private int bind(int[] columns, TupleView tuple, int first) {
        TableMapping m = target.mapping();
        int p = first;
        try {
            for (int c : columns) {
                values.bind(into, p++, tuple, c, m.sequenceHolder(c));
            }
        } catch (SQLException e) {
            failure = e;
        }
        return p;
    }
}
