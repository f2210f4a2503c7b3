package io.rdmarepl.channel.softverbs;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvCompChannel;
import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvRecvWR;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.RdmaVerbs;
import com.ibm.disni.verbs.SVCDeregMr;
import com.ibm.disni.verbs.SVCPollCq;
import com.ibm.disni.verbs.SVCPostRecv;
import com.ibm.disni.verbs.SVCPostSend;
import com.ibm.disni.verbs.SVCRegMr;
import com.ibm.disni.verbs.SVCReqNotify;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** The verbs of the software provider: protection domains, memory regions, completion queues, posting. */
final class SoftRdmaVerbs extends RdmaVerbs {
    private final AtomicInteger nextHandle = new AtomicInteger(1);
    private volatile SoftContext context;

    /** The emulated device, created on first use (never in the provider's constructor). */
    IbvContext context() throws IOException {
        SoftContext current = context;
        if (current == null) {
            synchronized (this) {
                if (context == null) {
                    context = new SoftContext();
                }
                current = context;
            }
        }
        return current;
    }

    @Override
    public IbvPd allocPd(IbvContext context) throws IOException {
        return new SoftPd(context, nextHandle.incrementAndGet());
    }

    @Override
    public IbvCompChannel createCompChannel(IbvContext context) throws IOException {
        return new SoftCompChannel(nextHandle.incrementAndGet(), context);
    }

    @Override
    public IbvCQ createCQ(IbvContext context, IbvCompChannel compChannel, int entries, int compVector) throws IOException {
        if (entries < 1) {
            throw new IOException("ibv_create_cq: EINVAL: " + entries + " entries");
        }
        return new SoftCq(context, (SoftCompChannel) compChannel, entries, nextHandle.incrementAndGet());
    }

    @Override
    public boolean getCqEvent(IbvCompChannel compChannel, IbvCQ cq, int timeoutMs) throws IOException {
        return ((SoftCompChannel) compChannel).await(cq, timeoutMs);
    }

    @Override
    public SVCRegMr regMr(IbvPd pd, ByteBuffer buffer, int access) throws IOException {
        return new SoftVerbCalls.RegMr(softPd(pd), buffer, access);
    }

    @Override
    public SVCRegMr regMr(IbvPd pd, long address, int length, int access) throws IOException {
        throw new IOException("ibv_reg_mr: EINVAL: softrdma registers direct ByteBuffers, not raw addresses");
    }

    @Override
    public int queryOdpSupport(IbvContext context) {
        return -1;
    }

    @Override
    public int expPrefetchMr(IbvMr mr, long address, int length) throws IOException {
        throw new IOException("ibv_exp_prefetch_mr: EOPNOTSUPP in softrdma");
    }

    @Override
    public SVCDeregMr deregMr(IbvMr mr) throws IOException {
        if (!(mr instanceof SoftMr softMr)) {
            throw new IOException("ibv_dereg_mr: EINVAL: not a softrdma memory region");
        }
        return new SoftVerbCalls.DeregMr(softMr);
    }

    @Override
    public SVCPostSend postSend(IbvQP qp, List<IbvSendWR> wrs, List<IbvSendWR> badWrs) throws IOException {
        SoftWr[] copies = new SoftWr[wrs.size()];
        for (int i = 0; i < copies.length; i++) {
            copies[i] = SoftWr.of(wrs.get(i));
        }
        return new SoftVerbCalls.PostSend(softQp(qp), copies);
    }

    @Override
    public SVCPostRecv postRecv(IbvQP qp, List<IbvRecvWR> wrs, List<IbvRecvWR> badWrs) throws IOException {
        SoftWr[] copies = new SoftWr[wrs.size()];
        for (int i = 0; i < copies.length; i++) {
            copies[i] = SoftWr.of(wrs.get(i));
        }
        return new SoftVerbCalls.PostRecv(softQp(qp), copies);
    }

    @Override
    public SVCPollCq pollCQ(IbvCQ cq, IbvWC[] wcs, int max) throws IOException {
        if (!(cq instanceof SoftCq softCq)) {
            throw new IOException("ibv_poll_cq: EINVAL: not a softrdma completion queue");
        }
        return new SoftVerbCalls.PollCq(softCq, wcs, max);
    }

    @Override
    public SVCReqNotify reqNotifyCQ(IbvCQ cq, boolean solicitedOnly) throws IOException {
        return new SoftVerbCalls.ReqNotify((SoftCq) cq);
    }

    @Override
    public int ackCqEvents(IbvCQ cq, int count) {
        return 0;
    }

    @Override
    public int destroyCompChannel(IbvCompChannel compChannel) {
        compChannel.close();
        return 0;
    }

    @Override
    public int deallocPd(IbvPd pd) {
        pd.close();
        return 0;
    }

    @Override
    public int destroyCQ(IbvCQ cq) {
        cq.close();
        return 0;
    }

    private static SoftPd softPd(IbvPd pd) throws IOException {
        if (pd instanceof SoftPd softPd) {
            return softPd;
        }
        throw new IOException("EINVAL: protection domain " + pd + " was not allocated by the softrdma provider");
    }

    private static SoftQp softQp(IbvQP qp) throws IOException {
        if (qp instanceof SoftQp softQp) {
            return softQp;
        }
        throw new IOException("EINVAL: queue pair " + qp + " was not created by the softrdma provider");
    }
}
