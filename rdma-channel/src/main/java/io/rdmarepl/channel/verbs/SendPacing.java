package io.rdmarepl.channel.verbs;

import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.SVCPostSend;

/**
 * Numbers one queue pair's send work requests (their wr_id) and signals one in every {@code signalInterval}: a
 * signalled completion retires every request numbered up to it (RC completes in order), so the send queue's
 * occupancy is known without a completion per request. One thread, or the caller's lock.
 */
final class SendPacing {
    private final int signalInterval;
    private long posted;
    private long lastSignaled;
    private long retired;

    SendPacing(int signalInterval) {
        this.signalInterval = signalInterval;
    }

    /**
     * Gives {@code wr} the next number, signalled when {@code maySignal} and {@code signalInterval} requests passed
     * since the last signalled one (a chain signals its last request only).
     */
    void number(SVCPostSend.SendWRMod wr, boolean maySignal) {
        long wrId = ++posted;
        wr.setWr_id(wrId);
        boolean signal = maySignal && wrId - lastSignaled >= signalInterval;
        wr.setSend_flags(signal ? IbvSendWR.IBV_SEND_SIGNALED : 0);
        if (signal) {
            lastSignaled = wrId;
        }
    }

    /** A completion of request {@code wrId}: it and every one before it have left the send queue. */
    void retire(long wrId) {
        retired = Math.max(retired, wrId);
    }

    /** Requests posted and not yet known to be retired. */
    long inFlight() {
        return posted - retired;
    }
}
