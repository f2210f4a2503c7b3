package io.rdmarepl.channel.softverbs;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvQPInitAttr;
import com.ibm.disni.verbs.IbvRecvWR;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvSge;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmEvent.EventType;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaConnParam;
import com.ibm.disni.verbs.RdmaEventChannel;
import com.ibm.disni.verbs.SVCPollCq;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.LinkedList;
import java.util.List;

/** Two connected RC queue pairs over the software provider, driven through DiSNI's public API only. */
final class SoftVerbsPair implements AutoCloseable {
    final Side server;
    final Side client;
    private final RdmaEventChannel serverEvents;
    private final RdmaCmId listenId;

    /** One end: its id, protection domain, completion queue and queue pair. */
    static final class Side {
        final RdmaCmId id;
        final IbvPd pd;
        final IbvCQ cq;
        final IbvQP qp;
        final IbvWC[] wcs = new IbvWC[16];
        final SVCPollCq poll;

        Side(RdmaCmId id, int sendQueueDepth) throws IOException {
            this.id = id;
            this.pd = id.getVerbs().allocPd();
            this.cq = id.getVerbs().createCQ(id.getVerbs().createCompChannel(), 64, 0);
            IbvQPInitAttr attr = new IbvQPInitAttr();
            attr.cap().setMax_send_wr(sendQueueDepth);
            attr.cap().setMax_recv_wr(8);
            attr.cap().setMax_send_sge(1);
            attr.cap().setMax_recv_sge(1);
            attr.setQp_type(IbvQP.IBV_QPT_RC);
            attr.setSend_cq(cq);
            attr.setRecv_cq(cq);
            this.qp = id.createQP(pd, attr);
            for (int i = 0; i < wcs.length; i++) {
                wcs[i] = new IbvWC();
            }
            this.poll = cq.poll(wcs, 1);
        }

        IbvMr register(ByteBuffer buffer, int access) throws IOException {
            return pd.regMr(buffer, access).execute().free().getMr();
        }

        void post(int opcode, long wrId, IbvMr local, int offset, int length, long remoteAddress, int rkey, int flags) throws IOException {
            IbvSendWR wr = new IbvSendWR();
            wr.setWr_id(wrId);
            wr.setOpcode(opcode);
            wr.setSend_flags(flags);
            wr.setSg_list(sge(local, offset, length));
            wr.setNum_sge(1);
            wr.getRdma().setRemote_addr(remoteAddress);
            wr.getRdma().setRkey(rkey);
            wr.setImm_data(0x5eed);
            qp.postSend(new LinkedList<>(List.of(wr)), null).execute().free();
        }

        void postRecv(long wrId, IbvMr local, int length) throws IOException {
            IbvRecvWR wr = new IbvRecvWR();
            wr.setWr_id(wrId);
            wr.setSg_list(sge(local, 0, length));
            wr.setNum_sge(1);
            qp.postRecv(new LinkedList<>(List.of(wr)), null).execute().free();
        }

        /** Waits (bounded) for the next completion and returns a copy of it. */
        IbvWC await(long timeoutMs) throws IOException {
            long deadlineNs = System.nanoTime() + timeoutMs * 1_000_000L;
            while (System.nanoTime() < deadlineNs) {
                if (poll.execute().getPolls() > 0) {
                    return wcs[0].clone();
                }
                Thread.onSpinWait();
            }
            throw new AssertionError("no completion within " + timeoutMs + " ms");
        }

        private static LinkedList<IbvSge> sge(IbvMr mr, int offset, int length) {
            IbvSge sge = new IbvSge();
            sge.setAddr(mr.getAddr() + offset);
            sge.setLength(length);
            sge.setLkey(mr.getLkey());
            return new LinkedList<>(List.of(sge));
        }
    }

    private SoftVerbsPair(Side server, Side client, RdmaEventChannel serverEvents, RdmaCmId listenId) {
        this.server = server;
        this.client = client;
        this.serverEvents = serverEvents;
        this.listenId = listenId;
    }

    static SoftVerbsPair connect(int clientSendQueueDepth) throws IOException {
        SoftRdma.install();
        RdmaEventChannel serverEvents = RdmaEventChannel.createEventChannel();
        RdmaCmId listenId = serverEvents.createId(RdmaCm.RDMA_PS_TCP);
        listenId.bindAddr(new InetSocketAddress("127.0.0.1", 0));
        listenId.listen(4);
        InetSocketAddress bound = (InetSocketAddress) listenId.getSource();

        RdmaEventChannel clientEvents = RdmaEventChannel.createEventChannel();
        RdmaCmId clientId = clientEvents.createId(RdmaCm.RDMA_PS_TCP);
        clientId.resolveAddr(null, bound, 1000);
        expect(clientEvents, EventType.RDMA_CM_EVENT_ADDR_RESOLVED);
        clientId.resolveRoute(1000);
        expect(clientEvents, EventType.RDMA_CM_EVENT_ROUTE_RESOLVED);
        Side client = new Side(clientId, clientSendQueueDepth);
        clientId.connect(new RdmaConnParam());
        RdmaCmEvent request = expect(serverEvents, EventType.RDMA_CM_EVENT_CONNECT_REQUEST);
        Side server = new Side(request.getConnIdPriv(), 16);
        server.id.accept(new RdmaConnParam());
        expect(serverEvents, EventType.RDMA_CM_EVENT_ESTABLISHED);
        expect(clientEvents, EventType.RDMA_CM_EVENT_ESTABLISHED);
        return new SoftVerbsPair(server, client, serverEvents, listenId);
    }

    static RdmaCmEvent expect(RdmaEventChannel channel, EventType type) throws IOException {
        RdmaCmEvent event = channel.getCmEvent(3_000);
        if (event == null || event.getEvent() != type.ordinal()) {
            throw new AssertionError("expected " + type + ", got " + (event == null ? "nothing within 3 s"
                    : EventType.values()[event.getEvent()]));
        }
        return event;
    }

    @Override
    public void close() throws IOException {
        client.id.disconnect();
        client.id.destroyId();
        server.id.destroyId();
        listenId.destroyId();
        serverEvents.destroyEventChannel();
    }
}
