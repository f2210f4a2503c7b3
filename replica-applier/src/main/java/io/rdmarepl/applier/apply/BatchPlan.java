package io.rdmarepl.applier.apply;

import io.rdmarepl.format.codec.TupleView;
import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * The batches of a group not yet sent, in the order they run (the plan), and the rule that keeps source order
 * where it matters. A change joins its shape's batch even when other shapes came in between, unless
 * {@link WriteSets} says it conflicts with a row in a later batch, or it or the change before it must run alone
 * (a barrier); then the plan is sent first. Without {@code reorder} (triggers and FK checks fire) a new shape sends
 * the plan, and nothing is superseded. Sending a batch is the caller's ({@link Sender}). Nothing allocates once
 * the plan array is as long as the group's shapes.
 */
final class BatchPlan {
    /** Sends the planned batches: each in plan order, then whatever it held back to send together. */
    interface Sender {
        void send(BatchingStatement batch) throws SQLException;

        /** After the last batch of a {@link #send()}: sends the batches held back ({@link BatchPipeline}). */
        void sent() throws SQLException;
    }

    private final WriteSets writeSets = new WriteSets();
    private final SameRowCheck sameRow = new SameRowCheck();
    private final boolean reorder;
    private final int batchMaxRows;
    private final CopyRows copy;
    private final Sender sender;
    private BatchingStatement[] plan = new BatchingStatement[8];
    private int planned;
    /** The last change added must run before the next one joins a batch. */
    private boolean runAlone;

    /**
     * @param batchMaxRows a batch is sent once it holds this many rows, unless it goes as COPY ({@code copy}): COPY
     *                     streams its rows, so a bulk of inserts stays one statement up to {@link CopyRows#MAX_ROWS}
     */
    BatchPlan(boolean reorder, int batchMaxRows, CopyRows copy, Sender sender) {
        this.reorder = reorder;
        this.batchMaxRows = batchMaxRows;
        this.copy = copy;
        this.sender = sender;
    }

    /** Where the caller states the write set of the change it is about to {@link #add}. */
    WriteSets writeSets() {
        return writeSets;
    }

    /**
     * Adds the change at {@code recordOffset} of {@code log} to {@code s}'s batch, sending the plan first when the
     * change must not run before rows already planned after that batch, and afterwards when the batch is full.
     *
     * @param alone     the change's rows cannot be told apart from any other, or a trigger fires for it: it runs
     *                  after everything planned, and before anything that comes after it
     * @param replacing the new tuple of a change that rewrites its row's columns of this shape in full: it
     *                  supersedes an earlier entry of the same row in the batch (keys compared byte for byte), which
     *                  then is never sent; else null
     */
    void add(BatchingStatement s, ByteBuffer log, int end, int recordOffset, boolean alone, TupleView replacing)
            throws SQLException {
        join(s, alone);
        if (replacing != null && !alone && reorder) {
            int earlier = writeSets.entryIn(s.slot());
            if (earlier >= 0) {
                if (sameRow.sameKey(log, s.recordOffsets()[earlier], end, s.mapping().conflictKey(), replacing)) {
                    s.supersede(earlier);
                } else {
                    // two keys, one token (a hash collision): send the batch, so that a batch never holds two rows
                    // of one token and the entry a token names is always its key's
                    send();
                    join(s, false);
                }
            }
        }
        writeSets.record(s.slot(), s.add(recordOffset));
        runAlone = alone;
        if (s.pending() >= batchMaxRows && !copy.filling(s, s.pending())) {
            send();
        }
    }

    private void join(BatchingStatement s, boolean alone) throws SQLException {
        int slot = s.slot();
        boolean mustSend = alone || runAlone
                || (reorder ? slot >= 0 && writeSets.latestSlot() > slot : slot < 0 || slot != planned - 1);
        if (mustSend && planned > 0) {
            send();
        }
        if (s.slot() < 0) {
            if (planned == plan.length) {
                plan = Arrays.copyOf(plan, planned * 2);
            }
            s.slot(planned);
            plan[planned++] = s;
        }
    }

    /** The plan's only batch when it holds a single row (which may then go with the commit), else null. */
    BatchingStatement loneRow() {
        return planned == 1 && plan[0].pending() == 1 ? plan[0] : null;
    }

    /** Sends every planned batch, in plan order, and starts a new plan. */
    void send() throws SQLException {
        for (int i = 0; i < planned; i++) {
            sender.send(plan[i]);
        }
        sender.sent();
        forget(false);
    }

    /** Starts a new plan after the caller sent its {@link #loneRow()} itself. */
    void sent() {
        forget(false);
    }

    /** Forgets the plan and whatever it still holds (a new group, or a failure). */
    void drop() {
        forget(true);
    }

    private void forget(boolean discard) {
        for (int i = 0; i < planned; i++) {
            if (discard) {
                plan[i].discard();
            }
            plan[i].slot(-1);
            plan[i] = null;
        }
        planned = 0;
        runAlone = false;
        writeSets.clear();
    }
}
