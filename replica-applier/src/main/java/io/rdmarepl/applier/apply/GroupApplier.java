package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.schema.RelationCache;
import io.rdmarepl.applier.schema.SchemaMismatchException;
import io.rdmarepl.applier.schema.SourceRelation;
import io.rdmarepl.applier.schema.TableMapping;
import io.rdmarepl.format.OldTupleKind;
import io.rdmarepl.format.RecordKind;
import io.rdmarepl.format.codec.CopyChunkView;
import io.rdmarepl.format.codec.RecordDecoder;
import io.rdmarepl.format.codec.RecordHandler;
import io.rdmarepl.format.codec.RelationView;
import io.rdmarepl.format.codec.RowChangeView;
import io.rdmarepl.format.codec.TransactionDescriptor;
import io.rdmarepl.format.codec.SequenceView;
import io.rdmarepl.format.codec.TruncateView;
import io.rdmarepl.format.codec.TupleView;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Replays the first transactions of the {@link GroupLog} into the replica: one replica transaction for
 * the whole group (or one per source transaction when isolating a failure), the applied position written in the
 * same transaction. All or nothing: on any error the replica transaction is rolled back and the failure says which
 * source transaction it was in. With {@code pauseOnDivergence}, a change that shows the replica already differs (an
 * UPDATE or DELETE finding no row, a streamed INSERT meeting its key) is such an error, naming table and key; inserts
 * are upserts only in the chunks of an initial copy, which may meet rows an interrupted copy wrote.
 *
 * <p>Rows are batched per statement shape, one pipelined JDBC batch each, and the batches run in the order they were
 * opened (the plan). With {@code reorder}, a row joins its shape's batch even when other shapes came in between,
 * unless {@link WriteSets} says it conflicts with a row in a later batch; then (or at a barrier: relation, truncate,
 * sequence, an unreadable key) the plan is flushed first. Source order therefore holds for every pair of changes
 * that touch the same row or may collide on a constraint; the group's readers see one commit either way. Without
 * {@code reorder} (triggers and FK checks fire: {@code session_replication_role=origin}) a new shape flushes the plan.
 */
final class GroupApplier implements RecordHandler {
    private final RecordDecoder decoder = new RecordDecoder();
    private static final int PROBED_ROWS_MOST = 500;
    private final RowBinder rowBinder = new RowBinder();
    private final CopyRows copyRows;
    private final CopyChunkApply copyChunks;
    private final RelationCache relations;
    private final ReplicaSession session;
    private final ApplierMetrics metrics;
    private final ShippedSequences sequences;
    private final boolean pauseOnDivergence;
    private final boolean reorder;
    private final BatchPlan plan;
    /** Batches of a group go in one round trip ({@link BatchPipeline}) where pgjdbc allows: {@code apply.pipeline}. */
    private final boolean pipelined;
    /** Batches staged in the session's pipeline and not yet sent. */
    private final StagedBatches staged = new StagedBatches();
    /** Each staged batch, once sent: its rows not found. One instance: the hot path allocates none. */
    private final StagedBatches.Sent countMissingOfStaged = this::countMissingOfStaged;
    private boolean withoutPipeline;
    private boolean retryWithoutPipeline;
    private boolean wroteInTransaction;
    private final long[] noToast = ShapeKey.empty();
    private long[] newToast = ShapeKey.empty();
    private long[] oldToast = ShapeKey.empty();
    private int ringEpoch;
    private int recordOffset;
    private int end;
    private boolean snapshotChunk;
    private String truncating;
    /** The CopyChunk being applied (its mapping and record offset), for a failure's message; null otherwise. */
    private TableMapping copying;
    private int copyingOffset;

    private GroupLog log;
    private boolean commitEach;
    private CommitTurn turn = CommitTurn.NOW;
    private BatchingStatement open;
    private long statementsGeneration = -1;
    private long txId;
    private long commitLsn;
    private int txIndex;
    private int committed;
    private int rows;
    private long missingRows;

    GroupApplier(RelationCache relations, ReplicaSession session, ApplierMetrics metrics, ShippedSequences sequences,
                 int batchMaxRows, int copyMinRows, boolean pauseOnDivergence, boolean reorder, boolean pipelined) {
        this.relations = relations;
        this.copyRows = new CopyRows(copyMinRows, batchMaxRows, reorder, metrics);
        this.copyChunks = new CopyChunkApply(reorder, metrics);
        this.session = session;
        this.metrics = metrics;
        this.sequences = sequences;
        this.pauseOnDivergence = pauseOnDivergence;
        this.reorder = reorder;
        this.pipelined = pipelined;
        this.plan = new BatchPlan(reorder, batchMaxRows, copyRows, new BatchPlan.Sender() {
            @Override
            public void send(BatchingStatement batch) throws SQLException {
                GroupApplier.this.send(batch);
            }

            @Override
            public void sent() throws SQLException {
                sendStaged();
            }
        });
    }

    /** What one call did. */
    record Outcome(int committedTransactions, int rows, long missingRows, ApplyFailure failure) {
        boolean ok() {
            return failure == null;
        }
    }

    /**
     * Applies the first {@code count} complete transactions of {@code log}.
     *
     * @param commitEach one replica transaction per source transaction (to isolate a failure), else one for all
     * @param ringEpoch  stored with the position
     */
    Outcome apply(GroupLog log, int count, boolean commitEach, int ringEpoch) {
        return apply(log, count, commitEach, ringEpoch, CommitTurn.NOW);
    }

    /**
     * As {@link #apply(GroupLog, int, boolean, int)}, writing the position and committing only once {@code turn}
     * allows (parallel apply: every row is sent before, so they run while earlier groups commit).
     */
    Outcome apply(GroupLog log, int count, boolean commitEach, int ringEpoch, CommitTurn turn) {
        withoutPipeline = false;
        Outcome outcome = applyOnce(log, count, commitEach, ringEpoch, turn);
        if (retryWithoutPipeline) {
            // the replica refused something in the pipeline: the same group again, a round trip a batch, fails at the
            // batch to blame and names it (or applies, if what failed is gone)
            withoutPipeline = true;
            outcome = applyOnce(log, count, commitEach, ringEpoch, turn);
        }
        return outcome;
    }

    private Outcome applyOnce(GroupLog log, int count, boolean commitEach, int ringEpoch, CommitTurn turn) {
        this.turn = turn;
        staged.reset();
        this.retryWithoutPipeline = false;
        this.log = log;
        this.commitEach = commitEach;
        this.ringEpoch = ringEpoch;
        this.committed = 0;
        this.rows = 0;
        this.missingRows = 0;
        this.txIndex = 0;
        this.open = null;
        this.truncating = null;
        this.copying = null;
        this.wroteInTransaction = false;
        plan.drop();
        end = log.transactionEnd(count - 1);
        try {
            session.connection();
            int at = 0;
            while (at < end) {
                recordOffset = at;
                at += decoder.decode(log.buffer(), at, end - at, this);
            }
            if (!commitEach) {
                commit(count - 1);
            }
            return new Outcome(committed, rows, missingRows, null);
        } catch (Abort abort) {
            return fail(abort.getCause());
        } catch (SQLException e) {
            return fail(e);
        }
    }

    private Outcome fail(Throwable cause) {
        if (open != null) {
            open.discard();
        }
        staged.discard();
        plan.drop();
        ApplyFailure failure;
        long failedTx = log.transactions() > txIndex ? log.txId(txIndex) : txId;
        long failedLsn = log.transactions() > txIndex ? log.commitLsn(txIndex) : commitLsn;
        String table = open == null ? null : open.shape().table();
        if (cause instanceof SchemaMismatchException s) {
            failure = new ApplyFailure(FailureCategory.SCHEMA, failedTx, failedLsn, s.table(), s.column(), null, s.getMessage());
        } else if (cause instanceof ReplicaDivergedException d) {
            failure = new ApplyFailure(FailureCategory.PERMANENT, failedTx, failedLsn, d.table(), null, null, d.getMessage());
        } else if (cause instanceof SQLException e && copying != null) {
            failure = CopyChunkApply.failure(e, session, copying, log.buffer(), copyingOffset, end, failedTx, failedLsn);
        } else if (cause instanceof SQLException e && pauseOnDivergence && table != null
                && open.shape().kind() == RecordKind.INSERT && "23505".equals(SqlErrors.sqlState(e))) {
            failure = new ApplyFailure(FailureCategory.PERMANENT, failedTx, failedLsn, table, null, "23505",
                    "INSERT into " + table + " met a row that is already on the replica (" + SqlErrors.detail(e)
                            + "): the replica differs from the primary; repair the row, or set apply.on.divergence=log"
                            + " to let the insert overwrite it");
        } else if (cause instanceof SQLException e && SqlErrors.classify(e) == FailureCategory.SCHEMA && open != null) {
            session.rollback();
            String refused = refusedValue(e);
            String where = " (applying " + open.shape().kind().displayName() + " to " + table + ")";
            failure = new ApplyFailure(FailureCategory.SCHEMA, failedTx, failedLsn, table, null, SqlErrors.sqlState(e),
                    (refused == null ? SqlErrors.message(e) : refused) + where);
        } else if (cause instanceof SQLException e) {
            FailureCategory category = SqlErrors.classify(e);
            String where = table != null ? " (applying " + open.shape().kind().displayName() + " to " + table + ")"
                    : truncating != null ? " (applying Truncate to " + truncating + ")" : "";
            failure = new ApplyFailure(category, failedTx, failedLsn, table, null, SqlErrors.sqlState(e),
                    SqlErrors.message(e) + where);
        } else {
            String where = copying != null ? " (applying CopyChunk to " + copying.qualifiedName() + ")" : "";
            failure = new ApplyFailure(FailureCategory.PERMANENT, failedTx, failedLsn,
                    copying != null ? copying.qualifiedName() : table, null, null, cause.getMessage() + where);
        }
        if (failure.category() == FailureCategory.RETRIABLE && !(cause instanceof CommitTurn.Abandoned)) {
            session.discard();
        } else {
            session.rollback();
            retryWithoutPipeline = staged.failed() && committed == 0 && !withoutPipeline;
        }
        open = null;
        return new Outcome(committed, rows, missingRows, failure);
    }

    /**
     * Which column's value the replica refused (the batch rolled back), or null when no single value is to blame.
     * Each probe is a few round trips: at most {@link #PROBED_ROWS_MOST} rows of a batch are probed.
     */
    private String refusedValue(SQLException failure) {
        try {
            int[] offsets = open.recordOffsets();
            int rows = Math.min(open.flushedRows(), PROBED_ROWS_MOST);
            if (open.sentAsCopy()) {
                // the server names the row a COPY stopped at: probe that one, not the whole (possibly huge) batch
                int line = SqlErrors.copyLine(failure);
                if (line < 1 || line > open.flushedRows()) {
                    return null;
                }
                offsets = new int[] {offsets[line - 1]};
                rows = 1;
            }
            return ValueProbe.refusedValue(session.connection(), log.buffer(), offsets, rows, end,
                    open.mapping(), open.shape());
        } catch (SQLException | RuntimeException probeFailed) {
            return null;
        }
    }

    private void commit(int lastTx) throws SQLException {
        BatchingStatement lone = plan.loneRow();
        // a row that must be found commits even when it is not (nothing written): only if nothing came before it
        if (lone != null && !(wroteInTransaction && pauseOnDivergence && lone.shape().findsOneRow())) {
            turn.await(session, false);
            sendWithPositionAndCommit(lone, lastTx);
        } else {
            flush();
            turn.await(session, true);
            session.writePositionAndCommit(log.commitLsn(lastTx), log.txId(lastTx), ringEpoch);
        }
        wroteInTransaction = false;
        committed = lastTx + 1;
    }

    /** The plan is one row: it, the position and COMMIT go in one round trip (a quiet primary's usual group). */
    private void sendWithPositionAndCommit(BatchingStatement lone, int lastTx) throws SQLException {
        open = lone;
        long missing = lone.sendWithPositionAndCommit(log.buffer(), end, rowBinder, session.positions(), session.commits(),
                log.commitLsn(lastTx), log.txId(lastTx), ringEpoch, pauseOnDivergence);
        metrics.batch(1);
        plan.sent();
        countMissing(lone, missing); // with pause, nothing was written: the statement checked first
    }

    @Override
    public void onBegin(long txId, long commitLsn, long commitTimeUs, int flags) {
        this.txId = txId;
        this.commitLsn = commitLsn;
        this.snapshotChunk = (flags & TransactionDescriptor.BEGIN_SNAPSHOT_CHUNK_FLAG) != 0;
    }

    @Override
    public void onCommit(long txId, long commitLsn, long endLsn, long commitTimeUs) {
        if (commitEach) {
            try {
                commit(txIndex);
            } catch (SQLException e) {
                throw new Abort(e);
            }
        }
        txIndex++;
    }

    @Override
    public void onRelation(RelationView view) {
        try {
            flush();
            relations.define(SourceRelation.copyOf(view));
        } catch (SQLException e) {
            throw new Abort(e);
        }
    }

    @Override
    public void onInsert(RowChangeView insert) {
        try {
            TableMapping m = mapping(insert.relationId());
            TupleView row = insert.newTuple();
            newToast = ShapeKey.toastColumns(row, newToast);
            boolean upsert = snapshotChunk || !pauseOnDivergence;
            BatchingStatement s = session.statements().get(m, RecordKind.INSERT, OldTupleKind.NONE, newToast, noToast,
                    upsert);
            WriteSets change = plan.writeSets();
            change.begin();
            boolean alone = !change.touch(insert.relationId(), m, row) || m.firesForApplier();
            // an upsert writes every column of its row: a later one of the same row replaces it (one multi-row
            // INSERT ... ON CONFLICT cannot affect a row twice)
            add(s, alone, upsert && m.conflictKey() != null ? row : null);
        } catch (SQLException | SchemaMismatchException e) {
            throw new Abort(e);
        }
    }

    @Override
    public void onUpdate(RowChangeView update) {
        try {
            TableMapping m = mapping(update.relationId());
            TupleView row = update.newTuple();
            newToast = ShapeKey.toastColumns(row, newToast);
            long[] oldMask = noToast;
            if (update.hasOldTuple()) {
                oldToast = ShapeKey.toastColumns(update.oldTuple(), oldToast);
                oldMask = oldToast;
            }
            BatchingStatement s = session.statements().get(m, RecordKind.UPDATE, update.oldTupleKind(), newToast, oldMask);
            if (s.shape().isNoOp()) {
                rows++;
                return;
            }
            WriteSets change = plan.writeSets();
            change.begin();
            boolean alone = update.hasOldTuple() && !change.touch(update.relationId(), m, update.oldTuple());
            alone |= !change.touch(update.relationId(), m, row);
            alone |= m.firesForApplier();
            // the same row again with the same columns set: the later change's values are all that count
            add(s, alone, !update.hasOldTuple() && m.conflictKey() != null ? row : null);
        } catch (SQLException | SchemaMismatchException e) {
            throw new Abort(e);
        }
    }

    @Override
    public void onDelete(RowChangeView delete) {
        try {
            TableMapping m = mapping(delete.relationId());
            oldToast = ShapeKey.toastColumns(delete.oldTuple(), oldToast);
            BatchingStatement s = session.statements().get(m, RecordKind.DELETE, delete.oldTupleKind(), noToast, oldToast);
            WriteSets change = plan.writeSets();
            change.begin();
            boolean alone = !change.touch(delete.relationId(), m, delete.oldTuple()) || m.firesForApplier();
            add(s, alone, null);
        } catch (SQLException | SchemaMismatchException e) {
            throw new Abort(e);
        }
    }

    @Override
    public void onTruncate(TruncateView truncate) {
        try {
            flush();
            open = null; // a failure from here on is the truncate's, not the last batch's
            StringBuilder tables = new StringBuilder();
            for (int i = 0; i < truncate.relationCount(); i++) {
                tables.append(i == 0 ? "" : ", ").append(mapping(truncate.relationId(i)).qualifiedName());
            }
            truncating = tables.toString();
            // Never RESTART IDENTITY, even when the primary did: the replica's sequences are set by Sequence records
            // only (ShippedSequences). A reading is taken on the primary's clock, not at a stream position, so it
            // may come ahead of the transactions it saw, this truncate among them; restarting here would undo it,
            // and the shipper never sends an unchanged state again: the replica would keep the restarted sequence.
            StringBuilder sql = new StringBuilder("TRUNCATE TABLE ").append(tables);
            if (truncate.cascade()) {
                sql.append(" CASCADE");
            }
            wroteInTransaction = true;
            try (Statement statement = session.connection().createStatement()) {
                statement.execute(sql.toString());
            }
            truncating = null;
            rows++;
        } catch (SQLException | SchemaMismatchException e) {
            throw new Abort(e);
        }
    }

    /** Rows of an initial copy as COPY text: sent on as they are ({@link CopyChunkApply}), after every batch before. */
    @Override
    public void onCopyChunk(CopyChunkView chunk) {
        try {
            flush();
            open = null; // a failure from here on is the chunk's
            TableMapping m = mapping(chunk.relationId());
            copying = m;
            copyingOffset = recordOffset;
            wroteInTransaction = true;
            copyChunks.apply(session.connection(), m, chunk, snapshotChunk || !pauseOnDivergence);
            metrics.batch(chunk.rowCount());
            rows += chunk.rowCount();
            copying = null;
        } catch (SQLException | SchemaMismatchException | IllegalStateException e) {
            throw new Abort(e);
        }
    }

    @Override
    public void onSequence(SequenceView sequence) {
        try {
            flush();
            wroteInTransaction = true;
            sequences.set(sequence, session);
        } catch (SQLException | SchemaMismatchException e) {
            throw new Abort(e);
        }
    }

    private TableMapping mapping(int relationId) throws SQLException, SchemaMismatchException {
        if (statementsGeneration != relations.generation()) {
            flush();
            session.statements().close();
            copyChunks.forget();
            statementsGeneration = relations.generation();
        }
        return relations.mapping(relationId, session.connection());
    }

    /** Plans the current change into {@code s}'s batch ({@link BatchPlan#add}). */
    private void add(BatchingStatement s, boolean alone, TupleView replacing) throws SQLException {
        open = s;
        plan.add(s, log.buffer(), end, recordOffset, alone, replacing);
        rows++;
    }

    /** Sends every planned batch, in plan order. */
    private void flush() throws SQLException {
        plan.send();
    }

    /**
     * Sends one batch of the plan ({@link BatchPlan.Sender}), or stages it in the session's pipeline, which
     * {@link #sendStaged} sends with the plan's other batches in one round trip.
     */
    private void send(BatchingStatement batch) throws SQLException {
        open = batch;
        if (batch.pending() > 0) {
            wroteInTransaction = true;
            int rowsSent = batch.pending();
            BatchPipeline pipeline = pipelined && !commitEach && !withoutPipeline ? session.pipeline() : null;
            if (pipeline != null && !batch.goesAsCopy(copyRows)) {
                staged.stage(batch, log.buffer(), end, rowBinder, reorder, pipeline);
                metrics.batch(rowsSent);
                return;
            }
            sendStaged(); // a COPY goes after the rows planned before it
            open = batch;
            long missing = batch.flush(log.buffer(), end, rowBinder, copyRows, reorder, pauseOnDivergence);
            metrics.batch(rowsSent);
            countMissing(batch, missing);
        }
    }

    /** Sends the batches staged in the pipeline, in one round trip, and counts the rows they did not find. */
    private void sendStaged() throws SQLException {
        if (!staged.isEmpty()) {
            open = null; // which batch the replica refused in the round trip is not known
            staged.send(session.pipeline(), countMissingOfStaged);
        }
    }

    private void countMissingOfStaged(BatchingStatement batch, int[] counts) throws SQLException {
        open = batch;
        countMissing(batch, batch.missing(counts, log.buffer(), end, rowBinder, pauseOnDivergence));
    }

    /** Rows an UPDATE or DELETE of {@code batch} did not find: a divergence that pauses, or counted. */
    private void countMissing(BatchingStatement batch, long missing) {
        if (missing > 0) {
            if (pauseOnDivergence) {
                throw new Abort(diverged(batch, missing));
            }
            missingRows += missing;
            metrics.missingRows(batch.shape(), missing);
        }
    }

    private ReplicaDivergedException diverged(BatchingStatement s, long missing) {
        StatementShape shape = s.shape();
        String key;
        try {
            key = RowKeyText.of(log.buffer(), s.firstMissingOffset(), end, s.mapping(), shape);
        } catch (RuntimeException e) {
            key = "(key not readable: " + e.getMessage() + ")";
        }
        String operation = shape.kind() == RecordKind.UPDATE ? "UPDATE" : "DELETE";
        return new ReplicaDivergedException(shape.table(), operation + " of " + shape.table() + " found no row with key "
                + key + (missing > 1 ? " (and " + (missing - 1) + " more in the same batch)" : "")
                + " on the replica: the replica differs from the primary; repair the row, or set"
                + " apply.on.divergence=log to count and log such changes instead");
    }

    /** Carries a checked failure out of a decoder callback; stackless. */
    private static final class Abort extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Abort(Throwable cause) {
            super(null, cause, false, false);
        }
    }
}
