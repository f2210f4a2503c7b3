package io.rdmarepl.channel.softverbs;

import com.ibm.disni.verbs.IbvRecvWR;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvSge;
import java.util.List;

/** A work request copied out of DiSNI's objects when the verb call is prepared; the call's modifiers change it. */
final class SoftWr {
    long wrId;
    int opcode;
    int sendFlags;
    int immediate;
    long remoteAddress;
    int rkey;
    final long[] sgeAddresses;
    final int[] sgeLengths;
    final int[] sgeLkeys;

    SoftWr(int sges) {
        sgeAddresses = new long[sges];
        sgeLengths = new int[sges];
        sgeLkeys = new int[sges];
    }

    static SoftWr of(IbvSendWR wr) {
        SoftWr copy = sges(wr.getSg_list());
        copy.wrId = wr.getWr_id();
        copy.opcode = wr.getOpcode();
        copy.sendFlags = wr.getSend_flags();
        copy.immediate = wr.getImm_data();
        copy.remoteAddress = wr.getRdma().getRemote_addr();
        copy.rkey = wr.getRdma().getRkey();
        return copy;
    }

    static SoftWr of(IbvRecvWR wr) {
        SoftWr copy = sges(wr.getSg_list());
        copy.wrId = wr.getWr_id();
        return copy;
    }

    void copyFrom(SoftWr other) {
        wrId = other.wrId;
        opcode = other.opcode;
        sendFlags = other.sendFlags;
        immediate = other.immediate;
        remoteAddress = other.remoteAddress;
        rkey = other.rkey;
        System.arraycopy(other.sgeAddresses, 0, sgeAddresses, 0, other.sgeAddresses.length);
        System.arraycopy(other.sgeLengths, 0, sgeLengths, 0, other.sgeLengths.length);
        System.arraycopy(other.sgeLkeys, 0, sgeLkeys, 0, other.sgeLkeys.length);
    }

    int totalLength() {
        long total = 0;
        for (int length : sgeLengths) {
            total += length;
        }
        return (int) Math.min(Integer.MAX_VALUE, total);
    }

    private static SoftWr sges(List<IbvSge> list) {
        SoftWr copy = new SoftWr(list == null ? 0 : list.size());
        for (int i = 0; list != null && i < list.size(); i++) {
            IbvSge sge = list.get(i);
            copy.sgeAddresses[i] = sge.getAddr();
            copy.sgeLengths[i] = sge.getLength();
            copy.sgeLkeys[i] = sge.getLkey();
        }
        return copy;
    }
}
