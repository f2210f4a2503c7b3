package io.rdmarepl.channel.verbs;

import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.SVCPostSend;
import java.io.IOException;
import java.util.LinkedList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The standby's side of one authenticated writer: pushes the feedback image into the writer's
 * feedback region with RDMA WRITEs. A failure marks the session dead (the writer went away); the
 * reader never throws because of it, and the writer is disconnected.
 */
final class FeedbackSession {
    private static final Logger LOG = LoggerFactory.getLogger(FeedbackSession.class);
    final VerbsConnection connection;
    final String peer;
    private final VerbsSettings settings;
    private final SVCPostSend push;
    private long posted;
    private long retired;
    private long lastSignaled;
    private volatile boolean dead;

    FeedbackSession(VerbsConnection connection, String peer, VerbsSettings settings, IbvMr imageMr, int imageLength,
                    long remoteAddress, int remoteRkey) throws IOException {
        this.connection = connection;
        this.peer = peer;
        this.settings = settings;
        IbvSendWR wr = new IbvSendWR();
        wr.setOpcode(IbvSendWR.IBV_WR_RDMA_WRITE);
        wr.setSg_list(VerbsConnection.sges(imageMr.getAddr(), imageLength, imageMr.getLkey()));
        wr.setNum_sge(1);
        wr.getRdma().setRemote_addr(remoteAddress);
        wr.getRdma().setRkey(remoteRkey);
        this.push = connection.qp.postSend(new LinkedList<>(List.of(wr)), null);
    }

    /** Pushes the registered feedback image {@code source}; false when the writer is gone. */
    synchronized boolean push(IbvMr source) {
        if (dead) {
            return false;
        }
        try {
            long deadlineNs = 0;
            while (posted - retired + 1 > settings.sendQueueDepth()) {
                if (poll() == 0) {
                    long nowNs = System.nanoTime();
                    if (deadlineNs == 0) {
                        deadlineNs = nowNs + TimeUnit.MILLISECONDS.toNanos(settings.completionTimeoutMs());
                    } else if (nowNs > deadlineNs) {
                        return die("no completion for " + settings.completionTimeoutMs() + " ms");
                    }
                    Thread.onSpinWait();
                }
            }
            SVCPostSend.SendWRMod wr = push.getWrMod(0);
            wr.getSgeMod(0).setAddr(source.getAddr());
            wr.getSgeMod(0).setLkey(source.getLkey());
            long wrId = ++posted;
            wr.setWr_id(wrId);
            boolean signal = wrId - lastSignaled >= settings.signalInterval();
            wr.setSend_flags(signal ? IbvSendWR.IBV_SEND_SIGNALED : 0);
            if (signal) {
                lastSignaled = wrId;
            }
            push.execute();
            poll();
            return !dead;
        } catch (IOException | RuntimeException e) {
            return die(e.toString());
        }
    }

    private int poll() throws IOException {
        int polled = connection.poll.execute().getPolls();
        for (int i = 0; i < polled; i++) {
            IbvWC wc = connection.completions[i];
            if (wc.getStatus() != IbvWC.IbvWcStatus.IBV_WC_SUCCESS.ordinal()) {
                die("feedback write failed: " + VerbsErrors.describe(wc.getStatus()));
                return polled;
            }
            retired = Math.max(retired, wc.getWr_id());
        }
        return polled;
    }

    /**
     * Stops feedback to this writer for good, and hangs up on it: a writer that no longer hears from
     * the standby would otherwise wait for ring room for ever on a connection it thinks is healthy;
     * disconnected, it fails and its shipper reconnects.
     */
    private boolean die(String reason) {
        if (!dead) {
            dead = true;
            LOG.info("writer {}: no more feedback ({}); disconnecting it", peer, reason);
            VerbsWriterEnd.quietly(connection.id::disconnect);
        }
        return false;
    }

    boolean isDead() {
        return dead;
    }

    synchronized void close() {
        dead = true;
        connection.close();
    }
}
