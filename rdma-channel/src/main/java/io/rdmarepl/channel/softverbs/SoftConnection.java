package io.rdmarepl.channel.softverbs;

import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.ACCEPT_TYPE;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.ACK_REQUESTED_FLAG;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.ACK_TYPE;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.CONNECT_TYPE;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.DISCONNECT_TYPE;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.FLAGS_OFFSET;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.HEADER_LENGTH;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.IMMEDIATE_OFFSET;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.LAST_SEGMENT_FLAG;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.MAX_SEGMENT;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.NAK_TYPE;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.PSN_OFFSET;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.READ_REQUEST_TYPE;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.READ_RESPONSE_TYPE;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.REMOTE_ADDRESS_OFFSET;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.RKEY_OFFSET;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.SEGMENT_LENGTH_OFFSET;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.SEGMENT_OFFSET_OFFSET;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.SEND_TYPE;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.STATUS_OFFSET;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.TOTAL_LENGTH_OFFSET;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.TYPE_OFFSET;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.WRITE_IMM_TYPE;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.WRITE_TYPE;

import com.ibm.disni.verbs.IbvWC.IbvWcStatus;
import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One emulated RC connection over one TCP socket. The posting thread writes requests straight to
 * the socket (no thread hop); one receive thread per connection lands incoming writes and sends,
 * answers reads, and retires the local send queue on acknowledgements. Data lands in registered
 * memory with a bulk copy followed by a release fence, request after request, in order.
 */
final class SoftConnection implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(SoftConnection.class);
    private static final int STAGING_LENGTH = 4 * (MAX_SEGMENT + HEADER_LENGTH);
    private static final int RECEIVE_LENGTH = 16 * (MAX_SEGMENT + HEADER_LENGTH);
    /**
     * How long the receive thread polls the socket for more data before it blocks in read: trades a
     * core while traffic flows for the wake-up latency of a blocked thread (tens of microseconds).
     */
    static final long RECEIVE_SPIN_NS = Long.getLong("rdmarepl.softrdma.receive.spin.us", 0) * 1_000;

    private final SocketChannel socket;
    final SoftCmId id;
    private final String description;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final ByteBuffer staging = ByteBuffer.allocateDirect(STAGING_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    private final ByteBuffer received = ByteBuffer.allocateDirect(RECEIVE_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    private final Thread receiver;
    volatile SoftQp qp;
    private volatile boolean closing;
    private volatile boolean established;
    private volatile long pendingAck;
    private volatile boolean ackOwed;
    private boolean ackRequested;

    private final SoftResponder responder = new SoftResponder(this, received);

    SoftConnection(SocketChannel socket, SoftCmId id) throws IOException {
        this.socket = socket;
        this.id = id;
        socket.configureBlocking(true);
        socket.socket().setTcpNoDelay(true);
        this.description = socket.getLocalAddress() + " <-> " + socket.getRemoteAddress();
        this.receiver = new Thread(this, "softrdma-rx " + description);
        receiver.setDaemon(true);
    }

    void start() {
        receiver.start();
    }

    String description() {
        return description;
    }

    java.net.SocketAddress localAddress() throws IOException {
        return socket.getLocalAddress();
    }

    java.net.SocketAddress remoteAddress() throws IOException {
        return socket.getRemoteAddress();
    }

    void established(SoftQp queuePair) {
        this.qp = queuePair;
        queuePair.connected(this);
        established = true;
    }

    boolean isEstablished() {
        return established;
    }

    // ---- sending (posting thread, under the queue pair's send lock) ----

    void beginBatch() {
        writeLock.lock();
        staging.clear();
    }

    void appendRequest(int type, boolean ackRequested, long psn, SoftWr wr, int total) throws IOException {
        if (type == READ_REQUEST_TYPE) {
            header(type, LAST_SEGMENT_FLAG | ACK_REQUESTED_FLAG, psn, wr.remoteAddress, wr.rkey, total, 0, 0, wr.immediate, 0);
            return;
        }
        int sge = 0;
        int sgeOffset = 0;
        int sent = 0;
        do {
            int segment = Math.min(MAX_SEGMENT, total - sent);
            int flags = (sent + segment == total ? LAST_SEGMENT_FLAG : 0) | (ackRequested ? ACK_REQUESTED_FLAG : 0);
            header(type, flags, psn, wr.remoteAddress, wr.rkey, total, sent, segment, wr.immediate, 0);
            int copied = 0;
            while (copied < segment) {
                int chunk = Math.min(segment - copied, wr.sgeLengths[sge] - sgeOffset);
                if (chunk > 0) {
                    SoftMr mr = SoftMemory.byLkey(wr.sgeLkeys[sge]);
                    int offset = mr.offsetOf(wr.sgeAddresses[sge], wr.sgeLengths[sge]);
                    staging.put(staging.position(), mr.memory, offset + sgeOffset, chunk);
                    staging.position(staging.position() + chunk);
                    copied += chunk;
                    sgeOffset += chunk;
                }
                if (sgeOffset == wr.sgeLengths[sge] && copied < segment) {
                    sge++;
                    sgeOffset = 0;
                }
            }
            sent += segment;
        } while (sent < total);
    }

    void endBatch() {
        try {
            if (ackOwed && staging.remaining() >= HEADER_LENGTH) {
                ackOwed = false;
                header(ACK_TYPE, 0, pendingAck, 0, 0, 0, 0, 0, 0, 0);
            }
            flushStaging();
        } catch (IOException e) {
            fail("write to peer failed: " + e.getMessage());
        } finally {
            writeLock.unlock();
        }
    }

    /** Sends an owed acknowledgement unless someone is writing, who then sends it (never waits for the poster). */
    void trySendAck() {
        while (ackOwed && writeLock.tryLock()) {
            try {
                if (ackOwed) {
                    ackOwed = false;
                    staging.clear();
                    header(ACK_TYPE, 0, pendingAck, 0, 0, 0, 0, 0, 0, 0);
                    flushStaging();
                }
            } catch (IOException e) {
                fail("write to peer failed: " + e.getMessage());
            } finally {
                writeLock.unlock();
            }
        }
    }

    void sendControl(int type, int status) throws IOException {
        writeLock.lock();
        try {
            staging.clear();
            header(type, LAST_SEGMENT_FLAG, 0, 0, 0, 0, 0, 0, 0, status);
            flushStaging();
        } finally {
            writeLock.unlock();
        }
    }

    private void header(int type, int flags, long psn, long address, int rkey, int total, int segmentOffset,
                        int segmentLength, int immediate, int status) throws IOException {
        if (staging.remaining() < HEADER_LENGTH + segmentLength) {
            flushStaging();
        }
        int at = staging.position();
        staging.putInt(at + TYPE_OFFSET, type);
        staging.putInt(at + FLAGS_OFFSET, flags);
        staging.putLong(at + PSN_OFFSET, psn);
        staging.putLong(at + REMOTE_ADDRESS_OFFSET, address);
        staging.putInt(at + RKEY_OFFSET, rkey);
        staging.putInt(at + TOTAL_LENGTH_OFFSET, total);
        staging.putInt(at + SEGMENT_OFFSET_OFFSET, segmentOffset);
        staging.putInt(at + SEGMENT_LENGTH_OFFSET, segmentLength);
        staging.putInt(at + IMMEDIATE_OFFSET, immediate);
        staging.putInt(at + STATUS_OFFSET, status);
        staging.position(at + HEADER_LENGTH);
    }

    private void flushStaging() throws IOException {
        staging.flip();
        while (staging.hasRemaining()) {
            socket.write(staging);
        }
        staging.clear();
    }

    // ---- receiving (receive thread) ----

    @Override
    public void run() {
        try {
            java.io.InputStream pending = RECEIVE_SPIN_NS > 0 ? socket.socket().getInputStream() : null;
            while (true) {
                if (pending != null) {
                    long untilNs = System.nanoTime() + RECEIVE_SPIN_NS;
                    while (pending.available() == 0 && System.nanoTime() - untilNs < 0) {
                        Thread.onSpinWait();
                    }
                }
                if (socket.read(received) < 0) {
                    broken("the peer closed the connection");
                    return;
                }
                received.flip();
                while (received.remaining() >= HEADER_LENGTH) {
                    int at = received.position();
                    int segment = received.getInt(at + SEGMENT_LENGTH_OFFSET);
                    if (segment < 0 || segment > MAX_SEGMENT) {
                        broken("protocol error: segment of " + segment + " bytes");
                        return;
                    }
                    if (received.remaining() < HEADER_LENGTH + segment) {
                        break;
                    }
                    if (!handle(at, segment)) {
                        return;
                    }
                    received.position(at + HEADER_LENGTH + segment);
                }
                received.compact();
                if (ackRequested) {
                    ackRequested = false;
                    ackOwed = true;
                    trySendAck();
                }
            }
        } catch (IOException | RuntimeException e) {
            broken(closing ? "closed" : "connection failed: " + e);
        }
    }

    private boolean handle(int at, int segment) throws IOException {
        int type = received.getInt(at + TYPE_OFFSET);
        switch (type) {
            case WRITE_TYPE, WRITE_IMM_TYPE -> responder.onWrite(type, at, segment);
            case SEND_TYPE -> responder.onSend(at, segment);
            case READ_REQUEST_TYPE -> responder.onReadRequest(at);
            case READ_RESPONSE_TYPE -> onReadResponse(at, segment);
            case ACK_TYPE -> qp.onAck(received.getLong(at + PSN_OFFSET));
            case NAK_TYPE -> qp.onNak(received.getLong(at + PSN_OFFSET), received.getInt(at + STATUS_OFFSET));
            case CONNECT_TYPE -> id.onConnectRequest(this);
            case ACCEPT_TYPE -> id.onAccepted(this);
            case DISCONNECT_TYPE -> {
                broken("the peer disconnected");
                return false;
            }
            default -> {
                broken("protocol error: message type " + type);
                return false;
            }
        }
        return true;
    }

    private void onReadResponse(int at, int segment) {
        long psn = received.getLong(at + PSN_OFFSET);
        int slot = qp.readSlot(psn);
        if (slot < 0) {
            return;
        }
        SoftResponder.scatter(received, qp.readSgeAddresses(slot), qp.readSgeLengths(slot), qp.readSgeLkeys(slot),
                received.getInt(at + SEGMENT_OFFSET_OFFSET), at + HEADER_LENGTH, segment);
        if ((received.getInt(at + FLAGS_OFFSET) & LAST_SEGMENT_FLAG) != 0) {
            VarHandle.releaseFence();
            qp.onAck(psn);
        }
    }

    void acknowledge(long psn, int flags) {
        pendingAck = psn;
        if ((flags & ACK_REQUESTED_FLAG) != 0) {
            ackRequested = true;
        }
    }

    /** Receive thread: a refused request is answered with its status. */
    void sendNak(long psn, int status) throws IOException {
        writeLock.lock();
        try {
            staging.clear();
            header(NAK_TYPE, 0, psn, 0, 0, 0, 0, 0, 0, status);
            flushStaging();
        } finally {
            writeLock.unlock();
        }
    }

    /** Receive thread: answers an RDMA READ with the region's bytes. */
    void sendReadResponse(long psn, long address, int rkey, int total, SoftMr mr, int offset) throws IOException {
        writeLock.lock();
        try {
            staging.clear();
            int sent = 0;
            do {
                int segment = Math.min(MAX_SEGMENT, total - sent);
                header(READ_RESPONSE_TYPE, sent + segment == total ? LAST_SEGMENT_FLAG : 0, psn, address, rkey, total, sent,
                        segment, 0, 0);
                staging.put(staging.position(), mr.memory, offset + sent, segment);
                staging.position(staging.position() + segment);
                sent += segment;
            } while (sent < total);
            flushStaging();
        } finally {
            writeLock.unlock();
        }
    }

    boolean isClosing() {
        return closing;
    }

    // ---- teardown ----

    /** A write failed: close the socket; the receive thread then fails the queue pair. */
    void fail(String reason) {
        LOG.debug("softrdma {}: {}", description, reason);
        closeSocket();
    }

    /** Local disconnect: tell the peer, then close. */
    void disconnect() {
        if (closing) {
            return;
        }
        closing = true;
        try {
            if (writeLock.tryLock(100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                try {
                    staging.clear();
                    header(DISCONNECT_TYPE, LAST_SEGMENT_FLAG, 0, 0, 0, 0, 0, 0, 0, 0);
                    flushStaging();
                } finally {
                    writeLock.unlock();
                }
            }
        } catch (IOException e) {
            LOG.debug("softrdma {}: disconnect message not sent: {}", description, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeSocket();
    }

    private void closeSocket() {
        try {
            socket.close();
        } catch (IOException e) {
            LOG.debug("softrdma {}: close: {}", description, e.toString());
        }
    }

    private boolean brokenOnce;

    private void broken(String reason) {
        synchronized (this) {
            if (brokenOnce) {
                return;
            }
            brokenOnce = true;
        }
        closeSocket();
        SoftQp queuePair = qp;
        if (queuePair != null) {
            int status = closing || reason.equals("the peer disconnected") ? IbvWcStatus.IBV_WC_WR_FLUSH_ERR.ordinal()
                    : IbvWcStatus.IBV_WC_RETRY_EXC_ERR.ordinal();
            queuePair.onBroken(status);
        }
        id.onConnectionLost(this, reason);
    }
}
