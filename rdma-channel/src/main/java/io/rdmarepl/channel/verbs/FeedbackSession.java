package io.rdmarepl.channel.verbs;

import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.SVCPostSend;
import io.rdmarepl.channel.ring.FeedbackDescriptor;
import java.io.IOException;
import java.util.LinkedList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The standby's side of one authenticated writer: pushes the feedback image into the writer's
 * feedback region with RDMA WRITEs, and keeps the receives its doorbell rings land in
 * ({@link DoorbellReceives}). Two writes, so that neither carries a stale copy of the other's words:
 * the report, bytes [0, {@link FeedbackDescriptor#DOORBELL_SLEEP_OFFSET}) of the image (its fields and
 * their CRC), as often as the reader reports; and the doorbell words, bytes [48, 64) (the sleep word
 * and the doorbell address), each time the reader takes a new sleep word. A failure marks the session
 * dead (the writer went away); the reader never throws because of it, and the writer is disconnected.
 */
final class FeedbackSession {
    private static final Logger LOG = LoggerFactory.getLogger(FeedbackSession.class);
    final VerbsConnection connection;
    final String peer;
    private final VerbsSettings settings;
    private final SVCPostSend push;
    private final SVCPostSend pushDoorbellWords;
    final DoorbellReceives doorbell;
    private final SendPacing sends;
    private volatile boolean dead;

    /** Posts the doorbell's receives: before the writer can learn it may ring (the doorbell words go after). */
    FeedbackSession(VerbsConnection connection, String peer, VerbsSettings settings, IbvMr imageMr,
                    long remoteAddress, int remoteRkey) throws IOException {
        this.connection = connection;
        this.peer = peer;
        this.settings = settings;
        this.sends = new SendPacing(settings.signalInterval());
        this.push = connection.qp.postSend(new LinkedList<>(List.of(write(imageMr, 0, FeedbackDescriptor.DOORBELL_SLEEP_OFFSET,
                remoteAddress, remoteRkey))), null);
        this.pushDoorbellWords = connection.qp.postSend(new LinkedList<>(List.of(write(imageMr, FeedbackDescriptor.DOORBELL_SLEEP_OFFSET,
                FeedbackDescriptor.REGION_LENGTH - FeedbackDescriptor.DOORBELL_SLEEP_OFFSET, remoteAddress, remoteRkey))), null);
        this.doorbell = new DoorbellReceives(connection);
    }

    private static IbvSendWR write(IbvMr imageMr, int offset, int length, long remoteAddress, int remoteRkey) {
        IbvSendWR wr = new IbvSendWR();
        wr.setOpcode(IbvSendWR.IBV_WR_RDMA_WRITE);
        wr.setSg_list(VerbsConnection.sges(imageMr.getAddr() + offset, length, imageMr.getLkey()));
        wr.setNum_sge(1);
        wr.getRdma().setRemote_addr(remoteAddress + offset);
        wr.getRdma().setRkey(remoteRkey);
        return wr;
    }

    /** Pushes the report of the registered feedback image {@code source}; false when the writer is gone. */
    synchronized boolean push(IbvMr source) {
        return post(push, source.getAddr(), source.getLkey());
    }

    /** Pushes the doorbell words of the reader's own image (registered as {@code image}); false when the writer is gone. */
    synchronized boolean pushDoorbellWords(IbvMr image) {
        return post(pushDoorbellWords, image.getAddr() + FeedbackDescriptor.DOORBELL_SLEEP_OFFSET, image.getLkey());
    }

    private boolean post(SVCPostSend write, long sourceAddress, int sourceLkey) {
        if (dead) {
            return false;
        }
        try {
            long deadlineNs = 0;
            while (sends.inFlight() + 1 > settings.sendQueueDepth()) {
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
            SVCPostSend.SendWRMod wr = write.getWrMod(0);
            wr.getSgeMod(0).setAddr(sourceAddress);
            wr.getSgeMod(0).setLkey(sourceLkey);
            sends.number(wr, true);
            write.execute();
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
            sends.retire(wc.getWr_id());
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
        doorbell.close();
        connection.close();
    }
}
