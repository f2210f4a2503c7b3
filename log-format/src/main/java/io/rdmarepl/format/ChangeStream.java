package io.rdmarepl.format;

/**
 * How change records travel between a shipper and an applier, whatever the transport.
 *
 * <ul>
 *   <li>Each ring message (of frame type {@link #RECORD_FRAME_TYPE}) holds exactly one encoded record.</li>
 *   <li>Every connection of a writer starts a new stream: a {@code Relation} record precedes the first
 *       row record of that relation in the stream, and again whenever the relation's columns change.</li>
 *   <li>A source transaction is {@code Begin}, its row and truncate records, {@code Commit}, never
 *       interleaved with another transaction, in the primary's commit order. {@code Begin.commitLsn}
 *       is always the transaction's commit LSN, so an applier can skip a transaction it already applied
 *       before reading its rows. Rolled-back transactions never appear.</li>
 *   <li>{@code Heartbeat} records come between transactions, every few milliseconds while the primary is idle.</li>
 *   <li>{@code Sequence} records come between transactions, never inside one: the state of a sequence as the shipper
 *       read it on the primary, sent when it changed since the last one sent (and every sequence once on each new
 *       connection). Per sequence they arrive in the order they were read, and a fresh reading precedes every
 *       catch-up marker ({@link CatchUpMarkers}). An applier sets the sequence to exactly that state, in stream
 *       order; they carry no position.</li>
 *   <li>After a writer restarts it re-sends from the position the applier reported durable, so transactions
 *       at or below the applier's stored position may arrive again and must be skipped.</li>
 * </ul>
 */
public final class ChangeStream {
    /** Frame type of ring messages carrying one change record. */
    public static final int RECORD_FRAME_TYPE = 1;

    private ChangeStream() {
    }
}
