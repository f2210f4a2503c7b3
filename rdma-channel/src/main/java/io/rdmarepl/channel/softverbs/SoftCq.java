package io.rdmarepl.channel.softverbs;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.IbvWC;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A completion queue: a bounded ring of preallocated entries, filled by the queue pairs' threads
 * and polled by the application. An empty poll is one volatile read.
 */
final class SoftCq extends IbvCQ {
    private static final Logger LOG = LoggerFactory.getLogger(SoftCq.class);
    private final long[] wrIds;
    private final int[] statuses;
    private final int[] opcodes;
    private final int[] byteLengths;
    private final int[] immediates;
    private final int[] qpNumbers;
    private final int mask;
    private final SoftCompChannel compChannel;
    private long head;
    private long tail;
    private volatile long count;
    private volatile boolean armed;
    private long overruns;

    SoftCq(IbvContext context, SoftCompChannel compChannel, int entries, int handle) throws IOException {
        super(context, compChannel, handle);
        int size = Integer.highestOneBit(Math.max(16, entries) * 2 - 1);
        this.cqe = entries;
        this.compChannel = compChannel;
        this.wrIds = new long[size];
        this.statuses = new int[size];
        this.opcodes = new int[size];
        this.byteLengths = new int[size];
        this.immediates = new int[size];
        this.qpNumbers = new int[size];
        this.mask = size - 1;
    }

    void add(long wrId, int status, int opcode, int byteLength, int immediate, int qpNumber) {
        boolean notify;
        synchronized (this) {
            if (tail - head > mask) {
                if (overruns++ == 0) {
                    LOG.error("softrdma: completion queue {} overrun ({} entries): completions are being lost", getHandle(), mask + 1);
                }
                return;
            }
            int index = (int) tail & mask;
            wrIds[index] = wrId;
            statuses[index] = status;
            opcodes[index] = opcode;
            byteLengths[index] = byteLength;
            immediates[index] = immediate;
            qpNumbers[index] = qpNumber;
            tail++;
            count = tail - head;
            notify = armed;
            armed = false;
        }
        if (notify && compChannel != null) {
            compChannel.signal(this);
        }
    }

    int take(IbvWC[] wcs, int max) {
        if (count == 0) {
            return 0;
        }
        synchronized (this) {
            int polled = 0;
            while (polled < max && polled < wcs.length && head < tail) {
                int index = (int) head & mask;
                IbvWC wc = wcs[polled++];
                wc.setWr_id(wrIds[index]);
                wc.setStatus(statuses[index]);
                wc.setOpcode(opcodes[index]);
                wc.setByte_len(byteLengths[index]);
                wc.setImm_data(immediates[index]);
                wc.setQp_num(qpNumbers[index]);
                wc.setVendor_err(0);
                head++;
            }
            count = tail - head;
            return polled;
        }
    }

    void arm() {
        boolean notify;
        synchronized (this) {
            notify = tail != head;
            armed = !notify;
        }
        if (notify && compChannel != null) {
            compChannel.signal(this);
        }
    }
}
