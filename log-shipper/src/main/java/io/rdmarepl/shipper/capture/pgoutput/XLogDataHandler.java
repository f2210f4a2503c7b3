package io.rdmarepl.shipper.capture.pgoutput;

import java.nio.ByteBuffer;

/**
 * What {@link ReplicationConnection#poll(XLogDataHandler)} calls, on the reading thread, for each message of the
 * stream. Implementations should not allocate either: they run once per pgoutput message.
 */
@FunctionalInterface
public interface XLogDataHandler {
    /**
     * One XLogData message: a pgoutput message in {@code payload[offset, offset + length)}.
     * <p>{@code payload} is the connection's receive buffer, big-endian, with position = {@code offset} and limit =
     * {@code offset + length}; it is REUSED: valid only during this call (copy what must outlive it), and not to be
     * written. Absolute gets with {@code offset} are the cheapest way to read it.
     *
     * @param walStart   for logical replication: the LSN of the WAL record when this is the last message written
     *                   for it (for a Commit, the commit record), else 0
     * @param walEnd     for logical replication the same value as {@code walStart}
     * @param sendTimeUs the server's clock when sent, microseconds since 2000-01-01 UTC
     */
    void onXLogData(long walStart, long walEnd, long sendTimeUs, ByteBuffer payload, int offset, int length);

    /**
     * A primary keepalive. When it asks for a reply, the connection has already sent the current positions before
     * this call. Default: nothing.
     *
     * @param walEnd the server's current end of WAL (what the slot has been decoded up to, for a logical walsender)
     */
    default void onKeepalive(long walEnd, long sendTimeUs, boolean replyRequested) {
    }
}
