package io.rdmarepl.channel.verbs;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvCompChannel;
import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvQPInitAttr;
import com.ibm.disni.verbs.IbvRecvWR;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvSge;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.SVCPollCq;
import com.ibm.disni.verbs.SVCPostRecv;
import com.ibm.disni.verbs.SVCPostSend;
import io.rdmarepl.channel.ChannelException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * One queue pair with its two completion queues (sends; receives, with a completion channel a thread can block on)
 * and the two small registered buffers the handshake messages travel in. Data work requests carry their sequence
 * number as wr_id; handshake messages use {@link #MESSAGE_WR_ID} and {@link #RECEIVE_WR_ID}, the reader's doorbell
 * receives {@link #DOORBELL_WR_ID}.
 */
final class VerbsConnection {
    static final long MESSAGE_WR_ID = -1;
    static final long RECEIVE_WR_ID = -2;
    static final long DOORBELL_WR_ID = -3;
    /** Receives a reader keeps posted for the writer's doorbell rings; one is used per sleep at most. */
    static final int DOORBELL_RECEIVES = 16;
    private static final int POLL_BATCH = 16;

    final RdmaCmId id;
    final IbvPd pd;
    final IbvCompChannel compChannel;
    final IbvCQ cq;
    final IbvCompChannel recvCompChannel;
    final IbvCQ recvCq;
    final IbvQP qp;
    final ByteBuffer sendMessage = Pages.allocate(HandshakeDescriptor.MESSAGE_CAPACITY);
    final ByteBuffer receiveMessage = Pages.allocate(HandshakeDescriptor.MESSAGE_CAPACITY);
    private final IbvMr sendMessageMr;
    private final IbvMr receiveMessageMr;
    private final SVCPostRecv postReceive;
    private final SVCPostSend postMessage;
    final IbvWC[] completions = new IbvWC[POLL_BATCH];
    final SVCPollCq poll;
    /** Filled by {@link #recvPoll}: a different array, since the receive queue is polled by another thread. */
    final IbvWC[] recvCompletions = new IbvWC[POLL_BATCH];
    final SVCPollCq recvPoll;
    private final List<IbvMr> registered = new ArrayList<>();
    private boolean messageArrived;
    private int messageLength;

    VerbsConnection(RdmaCmId id, IbvPd pd, int sendQueueDepth) throws IOException {
        this.id = id;
        this.pd = pd;
        this.compChannel = id.getVerbs().createCompChannel();
        this.cq = id.getVerbs().createCQ(compChannel, sendQueueDepth * 2 + 8, 0);
        this.recvCompChannel = id.getVerbs().createCompChannel();
        this.recvCq = id.getVerbs().createCQ(recvCompChannel, DOORBELL_RECEIVES * 2 + 8, 0);
        IbvQPInitAttr attr = new IbvQPInitAttr();
        attr.cap().setMax_send_wr(sendQueueDepth);
        attr.cap().setMax_recv_wr(DOORBELL_RECEIVES + 2);
        attr.cap().setMax_send_sge(1);
        attr.cap().setMax_recv_sge(1);
        attr.cap().setMax_inline_data(0);
        attr.setQp_type(IbvQP.IBV_QPT_RC);
        attr.setSend_cq(cq);
        attr.setRecv_cq(recvCq);
        this.qp = id.createQP(pd, attr);
        this.sendMessageMr = register(sendMessage, IbvMr.IBV_ACCESS_LOCAL_WRITE);
        this.receiveMessageMr = register(receiveMessage, IbvMr.IBV_ACCESS_LOCAL_WRITE);
        for (int i = 0; i < completions.length; i++) {
            completions[i] = new IbvWC();
            recvCompletions[i] = new IbvWC();
        }
        this.poll = cq.poll(completions, completions.length);
        this.recvPoll = recvCq.poll(recvCompletions, recvCompletions.length);

        IbvRecvWR recv = new IbvRecvWR();
        recv.setWr_id(RECEIVE_WR_ID);
        recv.setSg_list(sges(receiveMessageMr.getAddr(), HandshakeDescriptor.MESSAGE_CAPACITY, receiveMessageMr.getLkey()));
        recv.setNum_sge(1);
        this.postReceive = qp.postRecv(new LinkedList<>(List.of(recv)), null);

        IbvSendWR send = new IbvSendWR();
        send.setWr_id(MESSAGE_WR_ID);
        send.setOpcode(IbvSendWR.IBV_WR_SEND);
        send.setSend_flags(IbvSendWR.IBV_SEND_SIGNALED);
        send.setSg_list(sges(sendMessageMr.getAddr(), HandshakeDescriptor.MESSAGE_CAPACITY, sendMessageMr.getLkey()));
        send.setNum_sge(1);
        this.postMessage = qp.postSend(new LinkedList<>(List.of(send)), null);
    }

    IbvMr register(ByteBuffer buffer, int access) throws IOException {
        IbvMr mr = pd.regMr(buffer, access).execute().free().getMr();
        registered.add(mr);
        return mr;
    }

    static LinkedList<IbvSge> sges(long address, int length, int lkey) {
        IbvSge sge = new IbvSge();
        sge.setAddr(address);
        sge.setLength(length);
        sge.setLkey(lkey);
        LinkedList<IbvSge> list = new LinkedList<>();
        list.add(sge);
        return list;
    }

    void postReceive() throws IOException {
        messageArrived = false;
        postReceive.execute();
    }

    /** Sends the first {@code length} bytes of {@link #sendMessage} and waits for its completion. */
    void sendMessage(int length, long deadlineNs, String what) throws IOException {
        postMessage.getWrMod(0).getSgeMod(0).setLength(length);
        postMessage.execute();
        boolean sent = false;
        while (!sent) {
            int polled = poll.execute().getPolls();
            for (int i = 0; i < polled; i++) {
                IbvWC wc = completions[i];
                check(wc, what);
                if (wc.getWr_id() == MESSAGE_WR_ID) {
                    sent = true;
                }
            }
            idleUntil(polled, deadlineNs, what);
        }
    }

    /** Waits for the receive posted by {@link #postReceive()}; @return bytes received into {@link #receiveMessage} */
    int awaitMessage(long deadlineNs, String what) throws IOException {
        while (!messageArrived) {
            int polled = recvPoll.execute().getPolls();
            for (int i = 0; i < polled; i++) {
                IbvWC wc = recvCompletions[i];
                check(wc, what);
                if (wc.getWr_id() == RECEIVE_WR_ID) {
                    messageArrived = true;
                    messageLength = wc.getByte_len();
                }
            }
            if (!messageArrived) {
                idleUntil(polled, deadlineNs, what);
            }
        }
        return messageLength;
    }

    private static void idleUntil(int polled, long deadlineNs, String what) {
        if (polled > 0) {
            return;
        }
        if (System.nanoTime() > deadlineNs) {
            throw new ChannelException("timed out " + what);
        }
        LockSupport.parkNanos(20_000);
    }

    static void check(IbvWC wc, String what) {
        if (wc.getStatus() != IbvWC.IbvWcStatus.IBV_WC_SUCCESS.ordinal()) {
            throw new ChannelException(VerbsErrors.describe(wc.getStatus()) + " " + what);
        }
    }

    /** Releases the queue pair and everything registered through this connection; never throws. */
    void close() {
        try {
            id.disconnect();
        } catch (IOException | RuntimeException e) {
            // already gone
        }
        for (IbvMr mr : registered) {
            try {
                mr.deregMr().execute().free();
            } catch (IOException | RuntimeException e) {
                // best effort
            }
        }
        VerbsWriterEnd.quietly(id::destroyQP);
        VerbsWriterEnd.quietly(cq::destroyCQ);
        VerbsWriterEnd.quietly(compChannel::destroyCompChannel);
        VerbsWriterEnd.quietly(recvCq::destroyCQ);
        VerbsWriterEnd.quietly(recvCompChannel::destroyCompChannel);
        VerbsWriterEnd.quietly(id::destroyId);
    }
}
