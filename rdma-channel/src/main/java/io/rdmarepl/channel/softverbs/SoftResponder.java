package io.rdmarepl.channel.softverbs;

import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.FLAGS_OFFSET;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.HEADER_LENGTH;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.IMMEDIATE_OFFSET;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.LAST_SEGMENT_FLAG;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.PSN_OFFSET;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.REMOTE_ADDRESS_OFFSET;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.RKEY_OFFSET;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.SEGMENT_OFFSET_OFFSET;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.TOTAL_LENGTH_OFFSET;
import static io.rdmarepl.channel.softverbs.SoftWireDescriptor.WRITE_IMM_TYPE;

import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvWC.IbvWcOpcode;
import com.ibm.disni.verbs.IbvWC.IbvWcStatus;
import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The responder half of an emulated queue pair, run by the connection's receive thread: checks
 * every incoming WRITE, SEND and READ against protection domain, bounds and access flags before a
 * byte lands, lands data with a bulk copy and a release fence, and on a violation NAKs the request
 * and refuses everything after it (the queue pair is in the error state).
 */
final class SoftResponder {
    private static final Logger LOG = LoggerFactory.getLogger(SoftResponder.class);
    private final SoftConnection connection;
    private final ByteBuffer received;
    private boolean responderFailed;
    private SoftMr landingMr;
    private int landingOffset;
    private SoftWr landingRecv;

    SoftResponder(SoftConnection connection, ByteBuffer received) {
        this.connection = connection;
        this.received = received;
    }

    void onWrite(int type, int at, int segment) throws IOException {
        if (responderFailed || connection.isClosing()) {
            return;
        }
        long psn = received.getLong(at + PSN_OFFSET);
        int total = received.getInt(at + TOTAL_LENGTH_OFFSET);
        int segmentOffset = received.getInt(at + SEGMENT_OFFSET_OFFSET);
        if (segmentOffset == 0) {
            long address = received.getLong(at + REMOTE_ADDRESS_OFFSET);
            int rkey = received.getInt(at + RKEY_OFFSET);
            String refusal = checkRemote(address, rkey, total, IbvMr.IBV_ACCESS_REMOTE_WRITE, "RDMA WRITE");
            if (refusal != null) {
                respondError(psn, IbvWcStatus.IBV_WC_REM_ACCESS_ERR, refusal);
                return;
            }
            if (type == WRITE_IMM_TYPE) {
                landingRecv = connection.qp.takeRecv();
                if (landingRecv == null) {
                    respondError(psn, IbvWcStatus.IBV_WC_RNR_RETRY_EXC_ERR, "RDMA WRITE WITH IMM but no receive is posted");
                    return;
                }
            }
        }
        landingMr.memory.put(landingOffset + segmentOffset, received, at + HEADER_LENGTH, segment);
        int flags = received.getInt(at + FLAGS_OFFSET);
        if ((flags & LAST_SEGMENT_FLAG) != 0) {
            VarHandle.releaseFence();
            if (type == WRITE_IMM_TYPE) {
                connection.qp.recvCq.add(landingRecv.wrId, IbvWcStatus.IBV_WC_SUCCESS.ordinal(),
                        IbvWcOpcode.IBV_WC_RECV_RDMA_WITH_IMM.getOpcode(), total, received.getInt(at + IMMEDIATE_OFFSET), connection.qp.qpNumber);
                landingRecv = null;
            }
            connection.acknowledge(psn, flags);
        }
    }

    void onSend(int at, int segment) throws IOException {
        if (responderFailed || connection.isClosing()) {
            return;
        }
        long psn = received.getLong(at + PSN_OFFSET);
        int total = received.getInt(at + TOTAL_LENGTH_OFFSET);
        int segmentOffset = received.getInt(at + SEGMENT_OFFSET_OFFSET);
        if (segmentOffset == 0) {
            landingRecv = connection.qp.takeRecv();
            if (landingRecv == null) {
                respondError(psn, IbvWcStatus.IBV_WC_RNR_RETRY_EXC_ERR, "SEND of " + total + " bytes but no receive is posted");
                return;
            }
            String problem = landingRecv.totalLength() < total ? "SEND of " + total + " bytes into a receive of " + landingRecv.totalLength()
                    : checkLocal(landingRecv);
            if (problem != null) {
                connection.qp.recvCq.add(landingRecv.wrId, IbvWcStatus.IBV_WC_LOC_LEN_ERR.ordinal(), IbvWcOpcode.IBV_WC_RECV.getOpcode(), 0, 0, connection.qp.qpNumber);
                respondError(psn, IbvWcStatus.IBV_WC_REM_INV_REQ_ERR, problem);
                return;
            }
        }
        scatter(received, landingRecv.sgeAddresses, landingRecv.sgeLengths, landingRecv.sgeLkeys, segmentOffset, at + HEADER_LENGTH, segment);
        int flags = received.getInt(at + FLAGS_OFFSET);
        if ((flags & LAST_SEGMENT_FLAG) != 0) {
            VarHandle.releaseFence();
            connection.qp.recvCq.add(landingRecv.wrId, IbvWcStatus.IBV_WC_SUCCESS.ordinal(), IbvWcOpcode.IBV_WC_RECV.getOpcode(), total, 0, connection.qp.qpNumber);
            landingRecv = null;
            connection.acknowledge(psn, flags);
        }
    }

    void onReadRequest(int at) throws IOException {
        if (responderFailed || connection.isClosing()) {
            return;
        }
        long psn = received.getLong(at + PSN_OFFSET);
        long address = received.getLong(at + REMOTE_ADDRESS_OFFSET);
        int rkey = received.getInt(at + RKEY_OFFSET);
        int total = received.getInt(at + TOTAL_LENGTH_OFFSET);
        String refusal = checkRemote(address, rkey, total, IbvMr.IBV_ACCESS_REMOTE_READ, "RDMA READ");
        if (refusal != null) {
            respondError(psn, IbvWcStatus.IBV_WC_REM_ACCESS_ERR, refusal);
            return;
        }
        connection.sendReadResponse(psn, address, rkey, total, landingMr, landingOffset);
    }

    /** @return null when the remote access is allowed (and {@link #landingMr} / {@link #landingOffset} are set), else why not */
    private String checkRemote(long address, int rkey, int length, int access, String what) {
        SoftMr mr = SoftMemory.byRkey(rkey);
        String problem;
        if (mr == null) {
            problem = "no memory region has rkey 0x" + Integer.toHexString(rkey);
        } else if (mr.pd != connection.qp.softPd) {
            problem = "the memory region with rkey 0x" + Integer.toHexString(rkey) + " belongs to another protection domain";
        } else if (!mr.allows(access)) {
            problem = "the memory region with rkey 0x" + Integer.toHexString(rkey) + " was not registered for "
                    + (access == IbvMr.IBV_ACCESS_REMOTE_WRITE ? "REMOTE_WRITE" : "REMOTE_READ");
        } else if (mr.offsetOf(address, length) < 0) {
            problem = "[0x" + Long.toHexString(address) + ", +" + length + ") is outside the memory region [0x"
                    + Long.toHexString(mr.getAddr()) + ", +" + mr.getLength() + ")";
        } else {
            landingMr = mr;
            landingOffset = mr.offsetOf(address, length);
            return null;
        }
        return what + " of " + length + " bytes refused: " + problem;
    }

    private String checkLocal(SoftWr wr) {
        for (int s = 0; s < wr.sgeLengths.length; s++) {
            SoftMr mr = SoftMemory.byLkey(wr.sgeLkeys[s]);
            if (mr == null || mr.pd != connection.qp.softPd || !mr.allows(IbvMr.IBV_ACCESS_LOCAL_WRITE)
                    || mr.offsetOf(wr.sgeAddresses[s], wr.sgeLengths[s]) < 0) {
                return "receive buffer " + s + " fails the lkey, bounds or LOCAL_WRITE check";
            }
        }
        return null;
    }

    static void scatter(ByteBuffer received, long[] addresses, int[] lengths, int[] lkeys, int offset, int from, int length) {
        int skipped = 0;
        int copied = 0;
        for (int s = 0; s < lengths.length && copied < length; s++) {
            int sgeLength = lengths[s];
            if (skipped + sgeLength <= offset) {
                skipped += sgeLength;
                continue;
            }
            int within = Math.max(0, offset - skipped);
            int chunk = Math.min(length - copied, sgeLength - within);
            SoftMr mr = SoftMemory.byLkey(lkeys[s]);
            int base = mr.offsetOf(addresses[s], sgeLength);
            mr.memory.put(base + within, received, from + copied, chunk);
            copied += chunk;
            skipped += sgeLength;
        }
    }

    /** The responder side of the queue pair fails: NAK to the requester, nothing of this or later requests lands. */
    private void respondError(long psn, IbvWcStatus status, String reason) throws IOException {
        responderFailed = true;
        LOG.warn("softrdma (emulation) {}: {} -> {} to the requester; queue pair {} moves to the error state",
                connection.description(), reason, status, connection.qp.qpNumber);
        connection.qp.flushRecvQueue();
        connection.sendNak(psn, status.ordinal());
    }
}
