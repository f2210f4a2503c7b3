package io.rdmarepl.shipper.capture.pgoutput;

import static io.rdmarepl.shipper.capture.pgoutput.CopyDataDescriptor.COPY_DATA;
import static io.rdmarepl.shipper.capture.pgoutput.CopyDataDescriptor.STATUS_APPLIED_OFFSET;
import static io.rdmarepl.shipper.capture.pgoutput.CopyDataDescriptor.STATUS_CLOCK_OFFSET;
import static io.rdmarepl.shipper.capture.pgoutput.CopyDataDescriptor.STATUS_FLUSHED_OFFSET;
import static io.rdmarepl.shipper.capture.pgoutput.CopyDataDescriptor.STATUS_LENGTH;
import static io.rdmarepl.shipper.capture.pgoutput.CopyDataDescriptor.STATUS_REPLY_REQUESTED_OFFSET;
import static io.rdmarepl.shipper.capture.pgoutput.CopyDataDescriptor.STATUS_UPDATE;
import static io.rdmarepl.shipper.capture.pgoutput.CopyDataDescriptor.STATUS_WRITTEN_OFFSET;

import io.rdmarepl.format.Lsn;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The positions reported to the server and the one frame that carries them: a CopyData holding a standby status
 * update ({@link CopyDataDescriptor}), built in place in a 39-byte array and written under the output lock, so a
 * send from any thread costs one socket write and no allocation.
 *
 * <p>Positions only move forward: each is the maximum (in unsigned LSN order) of everything ever given, so a late
 * or stale acknowledgement can never pull {@code confirmed_flush_lsn} or a synchronous commit's view back. Taking
 * the maximum and writing happen under the same lock, so frames leave in the order of their positions.
 */
final class StandbyStatus {
    static final int FRAME_LENGTH = Byte.BYTES + Integer.BYTES + STATUS_LENGTH;
    private static final int BODY = Byte.BYTES + Integer.BYTES;

    private final FrontendWriter writer;
    private final ReentrantLock lock;
    private final byte[] frame = new byte[FRAME_LENGTH];
    private final ByteBuffer view = ByteBuffer.wrap(frame);
    private volatile long written;
    private volatile long flushed;
    private volatile long applied;
    private volatile long lastSentNs;
    private volatile long sentCount;

    StandbyStatus(FrontendWriter writer, long nowNs) {
        this.writer = writer;
        this.lock = writer.lock();
        this.lastSentNs = nowNs;
        view.put(0, COPY_DATA);
        view.putInt(1, Integer.BYTES + STATUS_LENGTH);
        view.put(BODY, STATUS_UPDATE);
    }

    /**
     * Raises the positions to at least the ones given and sends them, unless nothing moved and neither a reply
     * nor a send is asked for.
     *
     * @param replyRequested ask the server to answer with a keepalive at once
     * @param force          send even when no position moved (periodic status, keepalive reply)
     * @return whether a frame was written
     */
    boolean send(long writtenLsn, long flushedLsn, long appliedLsn, boolean replyRequested, boolean force)
        throws IOException {
        lock.lock();
        try {
            long nextWritten = Lsn.max(written, writtenLsn);
            long nextFlushed = Lsn.max(flushed, flushedLsn);
            long nextApplied = Lsn.max(applied, appliedLsn);
            if (!force && !replyRequested
                && nextWritten == written && nextFlushed == flushed && nextApplied == applied) {
                return false;
            }
            written = nextWritten;
            flushed = nextFlushed;
            applied = nextApplied;
            view.putLong(BODY + STATUS_WRITTEN_OFFSET, nextWritten);
            view.putLong(BODY + STATUS_FLUSHED_OFFSET, nextFlushed);
            view.putLong(BODY + STATUS_APPLIED_OFFSET, nextApplied);
            view.putLong(BODY + STATUS_CLOCK_OFFSET, CopyDataDescriptor.nowPostgresUs());
            view.put(BODY + STATUS_REPLY_REQUESTED_OFFSET, replyRequested ? (byte) 1 : (byte) 0);
            writer.write(frame, 0, FRAME_LENGTH);
            lastSentNs = System.nanoTime();
            sentCount++;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Sends the current positions again (periodic status, answer to a keepalive). */
    void resend(boolean replyRequested) throws IOException {
        send(0, 0, 0, replyRequested, true);
    }

    long written() {
        return written;
    }

    long flushed() {
        return flushed;
    }

    long applied() {
        return applied;
    }

    /** {@link System#nanoTime()} of the last frame written, or of creation. */
    long lastSentNs() {
        return lastSentNs;
    }

    long sentCount() {
        return sentCount;
    }
}
