package io.rdmarepl.channel.softverbs;

import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvQPInitAttr;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmEvent.EventType;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaConnParam;
import com.ibm.disni.verbs.RdmaEventChannel;
import java.io.IOException;
import java.net.SocketAddress;
import java.util.concurrent.atomic.AtomicInteger;

/** rdma_cm of the software provider: ids, listening, address resolution and connections over TCP. */
final class SoftRdmaCm extends RdmaCm {
    private static final int CONNECT_TIMEOUT_MS = 2_000;
    private final AtomicInteger nextFd = new AtomicInteger(1_000);
    private final AtomicInteger nextQpNumber = new AtomicInteger(0x100);
    private final SoftRdmaVerbs verbs;

    SoftRdmaCm(SoftRdmaVerbs verbs) {
        this.verbs = verbs;
    }

    @Override
    public RdmaEventChannel createEventChannel() throws IOException {
        return new SoftEventChannel(nextFd.incrementAndGet());
    }

    @Override
    public RdmaCmId createId(RdmaEventChannel channel, short portSpace) throws IOException {
        return new SoftCmId(soft(channel), verbs.context(), null);
    }

    @Override
    public IbvQP createQP(RdmaCmId id, IbvPd pd, IbvQPInitAttr attr) throws IOException {
        if (!(pd instanceof SoftPd softPd) || !(attr.getSend_cq() instanceof SoftCq) || !(attr.getRecv_cq() instanceof SoftCq)) {
            throw new IOException("rdma_create_qp: EINVAL: protection domain and completion queues must come from the softrdma provider");
        }
        if (attr.getQp_type() != IbvQP.IBV_QPT_RC) {
            throw new IOException("rdma_create_qp: EOPNOTSUPP: softrdma emulates reliable-connected (RC) queue pairs only");
        }
        SoftQp qp = new SoftQp(softPd, attr, nextQpNumber.incrementAndGet());
        soft(id).qp(qp);
        return qp;
    }

    @Override
    public void bindAddr(RdmaCmId id, SocketAddress address) throws IOException {
        soft(id).bind(address);
    }

    @Override
    public void listen(RdmaCmId id, int backlog) throws IOException {
        soft(id).listen();
    }

    @Override
    public void resolveAddr(RdmaCmId id, SocketAddress source, SocketAddress destination, int timeoutMs) throws IOException {
        soft(id).resolve(destination);
    }

    @Override
    public void resolveRoute(RdmaCmId id, int timeoutMs) throws IOException {
        SoftCmId softId = soft(id);
        int event = softId.destination != null ? EventType.RDMA_CM_EVENT_ROUTE_RESOLVED.ordinal() : EventType.RDMA_CM_EVENT_ROUTE_ERROR.ordinal();
        softId.channel.post(event, null, softId, softId.destination != null ? 0 : -22);
    }

    @Override
    public RdmaCmEvent getCmEvent(RdmaEventChannel channel, int timeoutMs) throws IOException {
        return soft(channel).next(timeoutMs);
    }

    @Override
    public void connect(RdmaCmId id, RdmaConnParam param) throws IOException {
        soft(id).connect(CONNECT_TIMEOUT_MS);
    }

    @Override
    public void accept(RdmaCmId id, RdmaConnParam param) throws IOException {
        soft(id).accept();
    }

    @Override
    public int ackCmEvent(RdmaCmEvent event) {
        return 0;
    }

    @Override
    public int disconnect(RdmaCmId id) throws IOException {
        soft(id).hangUp();
        return 0;
    }

    @Override
    public int destroyEventChannel(RdmaEventChannel channel) throws IOException {
        channel.close();
        return 0;
    }

    @Override
    public int destroyCmId(RdmaCmId id) throws IOException {
        soft(id).destroy();
        id.close();
        return 0;
    }

    @Override
    public int destroyQP(RdmaCmId id) throws IOException {
        SoftQp qp = soft(id).softQp();
        if (qp != null) {
            qp.flushRecvQueue();
            qp.close();
        }
        return 0;
    }

    @Override
    public SocketAddress getSrcAddr(RdmaCmId id) throws IOException {
        return soft(id).source();
    }

    @Override
    public SocketAddress getDstAddr(RdmaCmId id) throws IOException {
        return soft(id).destinationAddress();
    }

    @Override
    public int destroyEp(RdmaCmId id) throws IOException {
        destroyQP(id);
        return destroyCmId(id);
    }

    private static SoftCmId soft(RdmaCmId id) throws IOException {
        if (id instanceof SoftCmId softId) {
            return softId;
        }
        throw new IOException("EINVAL: " + id + " was not created by the softrdma provider");
    }

    private static SoftEventChannel soft(RdmaEventChannel channel) throws IOException {
        if (channel instanceof SoftEventChannel softChannel) {
            return softChannel;
        }
        throw new IOException("EINVAL: event channel " + channel + " was not created by the softrdma provider");
    }
}
