package io.rdmarepl.applier.apply;

import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * The row batches of a group staged in its session's {@link BatchPipeline}, in plan order, until one round trip sends
 * them all ({@link #send}); each batch then reads its own update counts. A failed round trip is remembered: the
 * replica's error names no batch then, and the group runs again without the pipeline to find the one to blame.
 */
final class StagedBatches {
    /** What becomes of each batch sent, in order, given the round trip's update counts. */
    @FunctionalInterface
    interface Sent {
        void sent(BatchingStatement batch, int[] counts) throws SQLException;
    }

    private BatchingStatement[] batches = new BatchingStatement[8];
    private int count;
    private boolean failed;

    /** A new run of a group: nothing staged, no round trip failed. */
    void reset() {
        Arrays.fill(batches, 0, count, null);
        count = 0;
        failed = false;
    }

    /** Binds {@code batch}'s pending rows into {@code pipeline} ({@link BatchingStatement#stage}), behind those staged. */
    void stage(BatchingStatement batch, ByteBuffer log, int end, RowBinder binder, boolean manyRows, BatchPipeline pipeline)
            throws SQLException {
        batch.stage(log, end, binder, manyRows, pipeline);
        if (count == batches.length) {
            batches = Arrays.copyOf(batches, count * 2);
        }
        batches[count++] = batch;
    }

    boolean isEmpty() {
        return count == 0;
    }

    /** Sends every staged batch in one round trip, then hands each to {@code each} with the update counts. */
    void send(BatchPipeline pipeline, Sent each) throws SQLException {
        int sent = count;
        count = 0;
        int[] counts;
        try {
            counts = pipeline.execute();
        } catch (SQLException e) {
            failed = true;
            Arrays.fill(batches, 0, sent, null);
            throw e;
        }
        for (int i = 0; i < sent; i++) {
            BatchingStatement batch = batches[i];
            batches[i] = null;
            each.sent(batch, counts);
        }
    }

    /** The staged batches drop their rows (the group failed before they were sent). */
    void discard() {
        for (int i = 0; i < count; i++) {
            batches[i].discard();
            batches[i] = null;
        }
        count = 0;
    }

    /** The round trip of this run failed: which batch the replica refused is not known. */
    boolean failed() {
        return failed;
    }
}
