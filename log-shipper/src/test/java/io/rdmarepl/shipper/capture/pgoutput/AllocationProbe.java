package io.rdmarepl.shipper.capture.pgoutput;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;

/**
 * A handler that allocates nothing and reads the reading thread's allocation counter at two commits, so that
 * everything allocated in between is the connection's read path (poll, framing, keepalive answers).
 */
final class AllocationProbe implements XLogDataHandler {
    private final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final long warmupCommits;
    private final long measuredCommits;
    private long commits;
    private long messages;
    private long bytesAtStart;
    private long messagesAtStart;
    private volatile long allocatedBytes = -1;
    private volatile long measuredMessages;
    private volatile boolean done;
    volatile Throwable failure;

    AllocationProbe(long warmupCommits, long measuredCommits) {
        this.warmupCommits = warmupCommits;
        this.measuredCommits = measuredCommits;
    }

    @Override
    public void onXLogData(long walStart, long walEnd, long sendTimeUs, ByteBuffer payload, int offset, int length) {
        messages++;
        if (payload.get(offset) == 'C') {
            commits++;
            if (commits == warmupCommits) {
                messagesAtStart = messages;
                bytesAtStart = threads.getCurrentThreadAllocatedBytes();
            } else if (commits == warmupCommits + measuredCommits) {
                allocatedBytes = threads.getCurrentThreadAllocatedBytes() - bytesAtStart;
                measuredMessages = messages - messagesAtStart;
                done = true;
            }
        }
    }

    @Override
    public void onKeepalive(long walEnd, long sendTimeUs, boolean replyRequested) {
        messages++;
    }

    boolean done() {
        return done;
    }

    long allocatedBytes() {
        return allocatedBytes;
    }

    long messages() {
        return measuredMessages;
    }
}
