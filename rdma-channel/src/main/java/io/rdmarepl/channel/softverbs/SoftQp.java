package io.rdmarepl.channel.softverbs;

import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvQPInitAttr;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvWC.IbvWcOpcode;
import com.ibm.disni.verbs.IbvWC.IbvWcStatus;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A reliable-connected queue pair. The send queue is a ring of outstanding work requests: the
 * posting thread appends (under {@link #sendLock}), the connection's receive thread retires them on
 * acknowledgements, in psn order, and writes their completions. Errors are sticky: the first failed
 * request completes with its status, everything after it with {@code IBV_WC_WR_FLUSH_ERR}.
 */
final class SoftQp extends com.ibm.disni.verbs.IbvQP {
    private static final int READ_SGES = 4;
    final SoftPd softPd;
    final int qpNumber;
    final SoftCq sendCq;
    final SoftCq recvCq;
    final int maxSendWr;
    final int maxRecvWr;
    private final boolean signalAll;
    final ReentrantLock sendLock = new ReentrantLock();
    private final ArrayDeque<SoftWr> recvQueue = new ArrayDeque<>();

    private final long[] slotPsn;
    private final long[] slotWrId;
    private final int[] slotOpcode;
    private final int[] slotLength;
    private final boolean[] slotSignaled;
    private final long[][] slotSgeAddress;
    private final int[][] slotSgeLength;
    private final int[][] slotSgeLkey;
    private final int slotMask;
    private volatile long head;
    private volatile long tail;
    private long nextPsn;

    volatile SoftConnection connection;
    private volatile int qpState;

    SoftQp(SoftPd pd, IbvQPInitAttr attr, int qpNumber) throws IOException {
        super(qpNumber);
        this.qpNumber = qpNumber;
        this.softPd = pd;
        this.pd = pd;
        this.context = pd.getContext();
        this.sendCq = (SoftCq) attr.getSend_cq();
        this.recvCq = (SoftCq) attr.getRecv_cq();
        this.send_cq = sendCq;
        this.recv_cq = recvCq;
        this.qp_type = attr.getQp_type();
        this.handle = qpNumber;
        this.maxSendWr = Math.max(1, attr.cap().getMax_send_wr());
        this.maxRecvWr = Math.max(1, attr.cap().getMax_recv_wr());
        this.signalAll = attr.getSq_sig_all() != 0;
        setState(IBV_QPS_INIT);
        int slots = Integer.highestOneBit(maxSendWr * 2 - 1);
        slotMask = slots - 1;
        slotPsn = new long[slots];
        slotWrId = new long[slots];
        slotOpcode = new int[slots];
        slotLength = new int[slots];
        slotSignaled = new boolean[slots];
        slotSgeAddress = new long[slots][READ_SGES];
        slotSgeLength = new int[slots][READ_SGES];
        slotSgeLkey = new int[slots][READ_SGES];
    }

    int state() {
        return qpState;
    }

    void setState(int next) {
        qpState = next;
        state = next;
    }

    void connected(SoftConnection connection) {
        this.connection = connection;
        setState(IBV_QPS_RTS);
    }

    /** Posts work requests as one doorbell: one write to the connection for all of them. */
    void postSend(SoftWr[] wrs, int count) throws IOException {
        SoftConnection conn = connection;
        sendLock.lock();
        try {
            if (qpState == IBV_QPS_ERR) {
                for (int i = 0; i < count; i++) {
                    sendCq.add(wrs[i].wrId, IbvWcStatus.IBV_WC_WR_FLUSH_ERR.ordinal(), wcOpcode(wrs[i].opcode), 0, 0, qpNumber);
                }
                return;
            }
            if (conn == null || qpState != IBV_QPS_RTS) {
                throw new IOException("ibv_post_send: EINVAL: softrdma queue pair " + qpNumber
                        + " is not connected (state " + stateName(qpState) + ")");
            }
            if (tail - head + count > maxSendWr) {
                throw new IOException("ibv_post_send: ENOMEM: softrdma send queue of queue pair " + qpNumber + " is full ("
                        + (tail - head) + " work requests outstanding, depth " + maxSendWr + ", posting " + count + ")");
            }
            try {
                conn.beginBatch();
                for (int i = 0; i < count; i++) {
                    if (!transmit(conn, wrs[i])) {
                        break;
                    }
                }
            } catch (IOException e) {
                conn.fail("write to peer failed: " + e.getMessage());
            } finally {
                conn.endBatch();
            }
        } finally {
            sendLock.unlock();
        }
        conn.trySendAck();
    }

    private boolean transmit(SoftConnection conn, SoftWr wr) throws IOException {
        int opcode = wr.opcode;
        boolean isRead = opcode == IbvSendWR.IBV_WR_RDMA_READ;
        if (opcode != IbvSendWR.IBV_WR_RDMA_WRITE && opcode != IbvSendWR.IBV_WR_RDMA_WRITE_WITH_IMM
                && opcode != IbvSendWR.IBV_WR_SEND && !isRead) {
            return localError(wr, IbvWcStatus.IBV_WC_LOC_QP_OP_ERR);
        }
        int total = 0;
        for (int s = 0; s < wr.sgeLengths.length; s++) {
            SoftMr mr = SoftMemory.byLkey(wr.sgeLkeys[s]);
            int access = isRead ? IbvMr.IBV_ACCESS_LOCAL_WRITE : 0;
            if (mr == null || mr.pd != softPd || !mr.allows(access) || mr.offsetOf(wr.sgeAddresses[s], wr.sgeLengths[s]) < 0) {
                return localError(wr, IbvWcStatus.IBV_WC_LOC_PROT_ERR);
            }
            total += wr.sgeLengths[s];
        }
        if (isRead && wr.sgeLengths.length > READ_SGES) {
            return localError(wr, IbvWcStatus.IBV_WC_LOC_LEN_ERR);
        }
        long psn = ++nextPsn;
        int index = (int) tail & slotMask;
        boolean signaled = signalAll || (wr.sendFlags & IbvSendWR.IBV_SEND_SIGNALED) != 0;
        slotPsn[index] = psn;
        slotWrId[index] = wr.wrId;
        slotOpcode[index] = wcOpcode(opcode);
        slotLength[index] = total;
        slotSignaled[index] = signaled;
        if (isRead) {
            for (int s = 0; s < wr.sgeLengths.length; s++) {
                slotSgeAddress[index][s] = wr.sgeAddresses[s];
                slotSgeLength[index][s] = wr.sgeLengths[s];
                slotSgeLkey[index][s] = wr.sgeLkeys[s];
            }
            for (int s = wr.sgeLengths.length; s < READ_SGES; s++) {
                slotSgeLength[index][s] = 0;
            }
        }
        tail = tail + 1;
        boolean ackRequested = signaled || tail - head >= (maxSendWr + 1) / 2;
        int type = switch (opcode) {
            case IbvSendWR.IBV_WR_RDMA_WRITE -> SoftWireDescriptor.WRITE_TYPE;
            case IbvSendWR.IBV_WR_RDMA_WRITE_WITH_IMM -> SoftWireDescriptor.WRITE_IMM_TYPE;
            case IbvSendWR.IBV_WR_SEND -> SoftWireDescriptor.SEND_TYPE;
            default -> SoftWireDescriptor.READ_REQUEST_TYPE;
        };
        conn.appendRequest(type, ackRequested, psn, wr, total);
        return true;
    }

    private boolean localError(SoftWr wr, IbvWcStatus status) {
        sendCq.add(wr.wrId, status.ordinal(), wcOpcode(wr.opcode), 0, 0, qpNumber);
        setState(IBV_QPS_ERR);
        return false;
    }

    // ---- called by the connection's receive thread only ----

    void onAck(long psn) {
        long h = head;
        while (h < tail && slotPsn[(int) h & slotMask] <= psn) {
            int index = (int) h & slotMask;
            boolean signaled = slotSignaled[index];
            long wrId = slotWrId[index];
            int opcode = slotOpcode[index];
            int length = slotLength[index];
            // free the slot before the completion is visible: whoever polls it may post again at once
            h++;
            head = h;
            if (signaled) {
                sendCq.add(wrId, IbvWcStatus.IBV_WC_SUCCESS.ordinal(), opcode, length, 0, qpNumber);
            }
        }
    }

    void onNak(long psn, int status) {
        onAck(psn - 1);
        failSendQueue(status);
    }

    /** The connection is gone: the request in flight fails with {@code status}, the rest flush. */
    void onBroken(int status) {
        failSendQueue(status);
        flushRecvQueue();
    }

    /** Local slots of the outstanding READ with {@code psn}, after retiring everything before it; null when unknown. */
    int readSlot(long psn) {
        onAck(psn - 1);
        long h = head;
        if (h < tail && slotPsn[(int) h & slotMask] == psn && slotOpcode[(int) h & slotMask] == IbvWcOpcode.IBV_WC_RDMA_READ.getOpcode()) {
            return (int) h & slotMask;
        }
        return -1;
    }

    long[] readSgeAddresses(int slot) {
        return slotSgeAddress[slot];
    }

    int[] readSgeLengths(int slot) {
        return slotSgeLength[slot];
    }

    int[] readSgeLkeys(int slot) {
        return slotSgeLkey[slot];
    }

    /**
     * Enters the error state and completes every outstanding request, the first with {@code firstStatus}.
     * Both happen under the send lock: a post that sees the error state completes after them, in order.
     */
    private void failSendQueue(int firstStatus) {
        sendLock.lock();
        try {
            setState(IBV_QPS_ERR);
            int status = firstStatus;
            for (long h = head; h < tail; h++) {
                int index = (int) h & slotMask;
                long wrId = slotWrId[index];
                int opcode = slotOpcode[index];
                head = h + 1;
                sendCq.add(wrId, status, opcode, 0, 0, qpNumber);
                status = IbvWcStatus.IBV_WC_WR_FLUSH_ERR.ordinal();
            }
        } finally {
            sendLock.unlock();
        }
    }

    // ---- receive queue ----

    void postRecv(SoftWr[] wrs, int count) throws IOException {
        synchronized (recvQueue) {
            if (qpState == IBV_QPS_ERR) {
                flushRecvQueue();
                for (int i = 0; i < count; i++) {
                    recvCq.add(wrs[i].wrId, IbvWcStatus.IBV_WC_WR_FLUSH_ERR.ordinal(), IbvWcOpcode.IBV_WC_RECV.getOpcode(), 0, 0, qpNumber);
                }
                return;
            }
            if (recvQueue.size() + count > maxRecvWr) {
                throw new IOException("ibv_post_recv: ENOMEM: softrdma receive queue of queue pair " + qpNumber
                        + " is full (depth " + maxRecvWr + ")");
            }
            for (int i = 0; i < count; i++) {
                SoftWr copy = new SoftWr(wrs[i].sgeLengths.length);
                copy.copyFrom(wrs[i]);
                recvQueue.add(copy);
            }
        }
    }

    SoftWr takeRecv() {
        synchronized (recvQueue) {
            return recvQueue.poll();
        }
    }

    void flushRecvQueue() {
        synchronized (recvQueue) {
            setState(IBV_QPS_ERR);
            SoftWr wr;
            while ((wr = recvQueue.poll()) != null) {
                recvCq.add(wr.wrId, IbvWcStatus.IBV_WC_WR_FLUSH_ERR.ordinal(), IbvWcOpcode.IBV_WC_RECV.getOpcode(), 0, 0, qpNumber);
            }
        }
    }

    static int wcOpcode(int wrOpcode) {
        return switch (wrOpcode) {
            case IbvSendWR.IBV_WR_RDMA_WRITE, IbvSendWR.IBV_WR_RDMA_WRITE_WITH_IMM -> IbvWcOpcode.IBV_WC_RDMA_WRITE.getOpcode();
            case IbvSendWR.IBV_WR_RDMA_READ -> IbvWcOpcode.IBV_WC_RDMA_READ.getOpcode();
            default -> IbvWcOpcode.IBV_WC_SEND.getOpcode();
        };
    }

    static String stateName(int state) {
        return switch (state) {
            case IBV_QPS_RESET -> "RESET";
            case IBV_QPS_INIT -> "INIT";
            case IBV_QPS_RTR -> "RTR";
            case IBV_QPS_RTS -> "RTS";
            case IBV_QPS_ERR -> "ERR";
            default -> Integer.toString(state);
        };
    }
}
