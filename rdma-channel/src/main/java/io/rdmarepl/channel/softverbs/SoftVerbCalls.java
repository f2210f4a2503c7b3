package io.rdmarepl.channel.softverbs;

import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.SVCDeregMr;
import com.ibm.disni.verbs.SVCPollCq;
import com.ibm.disni.verbs.SVCPostRecv;
import com.ibm.disni.verbs.SVCPostSend;
import com.ibm.disni.verbs.SVCRegMr;
import com.ibm.disni.verbs.SVCReqNotify;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The stateful verb calls of the software provider: prepared once, executed as often as the
 * application likes, allocation-free on execute (posting and polling).
 */
final class SoftVerbCalls {
    private SoftVerbCalls() {
    }

    /** ibv_post_send of a prepared list of work requests: one doorbell, one socket write. */
    static final class PostSend extends SVCPostSend {
        private final SoftQp qp;
        private final SoftWr[] wrs;
        private final SendWrMod[] mods;
        private boolean valid = true;

        PostSend(SoftQp qp, SoftWr[] wrs) {
            this.qp = qp;
            this.wrs = wrs;
            this.mods = new SendWrMod[wrs.length];
            for (int i = 0; i < wrs.length; i++) {
                mods[i] = new SendWrMod(wrs[i]);
            }
        }

        @Override
        public PostSend execute() throws IOException {
            qp.postSend(wrs, wrs.length);
            return this;
        }

        @Override
        public boolean isValid() {
            return valid;
        }

        @Override
        public PostSend free() {
            valid = false;
            return this;
        }

        @Override
        public SendWRMod getWrMod(int index) throws IOException {
            if (index < 0 || index >= mods.length) {
                throw new IOException("no work request " + index + " in this post (" + mods.length + ")");
            }
            return mods[index];
        }
    }

    static final class SendWrMod implements SVCPostSend.SendWRMod, SVCPostSend.RdmaMod {
        private final SoftWr wr;
        private final SgeMod[] sges;

        SendWrMod(SoftWr wr) {
            this.wr = wr;
            this.sges = new SgeMod[wr.sgeLengths.length];
            for (int i = 0; i < sges.length; i++) {
                sges[i] = new SgeMod(wr, i);
            }
        }

        @Override
        public void setWr_id(long wrId) {
            wr.wrId = wrId;
        }

        @Override
        public void setSend_flags(int flags) {
            wr.sendFlags = flags;
        }

        @Override
        public long getWr_id() {
            return wr.wrId;
        }

        @Override
        public int getNum_sge() {
            return sges.length;
        }

        @Override
        public int getOpcode() {
            return wr.opcode;
        }

        @Override
        public int getSend_flags() {
            return wr.sendFlags;
        }

        @Override
        public SVCPostSend.RdmaMod getRdmaMod() {
            return this;
        }

        @Override
        public SVCPostSend.SgeMod getSgeMod(int index) {
            return sges[index];
        }

        @Override
        public void setRemote_addr(long address) {
            wr.remoteAddress = address;
        }

        @Override
        public long getRemote_addr() {
            return wr.remoteAddress;
        }

        @Override
        public void setRkey(int rkey) {
            wr.rkey = rkey;
        }

        @Override
        public int getRkey() {
            return wr.rkey;
        }

        @Override
        public void setReserved(int reserved) {
        }

        @Override
        public int getReserved() {
            return 0;
        }
    }

    static final class SgeMod implements SVCPostSend.SgeMod {
        private final SoftWr wr;
        private final int index;

        SgeMod(SoftWr wr, int index) {
            this.wr = wr;
            this.index = index;
        }

        @Override
        public void setAddr(long address) {
            wr.sgeAddresses[index] = address;
        }

        @Override
        public long getAddr() {
            return wr.sgeAddresses[index];
        }

        @Override
        public void setLength(int length) {
            wr.sgeLengths[index] = length;
        }

        @Override
        public int getLength() {
            return wr.sgeLengths[index];
        }

        @Override
        public void setLkey(int lkey) {
            wr.sgeLkeys[index] = lkey;
        }

        @Override
        public int getLkey() {
            return wr.sgeLkeys[index];
        }
    }

    static final class PostRecv extends SVCPostRecv {
        private final SoftQp qp;
        private final SoftWr[] wrs;
        private boolean valid = true;

        PostRecv(SoftQp qp, SoftWr[] wrs) {
            this.qp = qp;
            this.wrs = wrs;
        }

        @Override
        public PostRecv execute() throws IOException {
            qp.postRecv(wrs, wrs.length);
            return this;
        }

        @Override
        public boolean isValid() {
            return valid;
        }

        @Override
        public PostRecv free() {
            valid = false;
            return this;
        }

        @Override
        public RecvWRMod getWrMod(int index) {
            SoftWr wr = wrs[index];
            return () -> wr.wrId;
        }
    }

    static final class PollCq extends SVCPollCq {
        private final SoftCq cq;
        private final IbvWC[] wcs;
        private final int max;
        private int polls;
        private boolean valid = true;

        PollCq(SoftCq cq, IbvWC[] wcs, int max) {
            this.cq = cq;
            this.wcs = wcs;
            this.max = max;
        }

        @Override
        public PollCq execute() {
            polls = cq.take(wcs, max);
            return this;
        }

        @Override
        public int getPolls() {
            return polls;
        }

        @Override
        public boolean isValid() {
            return valid;
        }

        @Override
        public PollCq free() {
            valid = false;
            return this;
        }
    }

    static final class RegMr extends SVCRegMr {
        private final SoftPd pd;
        private final ByteBuffer buffer;
        private final int access;
        private IbvMr mr;
        private boolean valid = true;

        RegMr(SoftPd pd, ByteBuffer buffer, int access) {
            this.pd = pd;
            this.buffer = buffer;
            this.access = access;
        }

        @Override
        public RegMr execute() throws IOException {
            mr = SoftMemory.register(pd, buffer, access);
            return this;
        }

        @Override
        public IbvMr getMr() {
            return mr;
        }

        @Override
        public boolean isValid() {
            return valid;
        }

        @Override
        public RegMr free() {
            valid = false;
            return this;
        }
    }

    static final class DeregMr extends SVCDeregMr {
        private final SoftMr mr;
        private boolean valid = true;

        DeregMr(SoftMr mr) {
            this.mr = mr;
        }

        @Override
        public DeregMr execute() {
            SoftMemory.deregister(mr);
            mr.close();
            return this;
        }

        @Override
        public boolean isValid() {
            return valid;
        }

        @Override
        public DeregMr free() {
            valid = false;
            return this;
        }
    }

    static final class ReqNotify extends SVCReqNotify {
        private final SoftCq cq;
        private boolean valid = true;

        ReqNotify(SoftCq cq) {
            this.cq = cq;
        }

        @Override
        public ReqNotify execute() {
            cq.arm();
            return this;
        }

        @Override
        public boolean isValid() {
            return valid;
        }

        @Override
        public ReqNotify free() {
            valid = false;
            return this;
        }
    }
}
