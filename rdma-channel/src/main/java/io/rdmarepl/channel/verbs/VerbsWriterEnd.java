package io.rdmarepl.channel.verbs;

import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmEvent.EventType;
import com.ibm.disni.verbs.RdmaEventChannel;
import com.ibm.disni.verbs.SVCPostSend;
import io.rdmarepl.channel.ChannelException;
import io.rdmarepl.channel.ChannelSecurity;
import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.channel.ring.FeedbackDescriptor;
import io.rdmarepl.channel.ring.RingDescriptor;
import io.rdmarepl.channel.ring.WriterEnd;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.LinkedList;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shipper's end over verbs, once connected to the standby ({@link WriterConnector}: rdma_cm, the
 * shared secret proven, the ring's address, rkey, capacity and epoch learnt): pushes ranges of its image
 * with RDMA WRITEs from {@code imageMr.getAddr() + offset} to {@code ringAddress + offset}, and rings the
 * reader's doorbell while it sleeps.
 *
 * <p>Ranges pushed by {@link io.rdmarepl.channel.ring.RingWriter#publish()} are posted together
 * with the producer position that ends every publish: one chain of up to three work requests, one
 * doorbell, one signalled request per {@link VerbsSettings#signalInterval()}. Not thread-safe: one
 * thread pushes. A failed completion or a disconnect makes every later push throw
 * {@link ChannelException}; open a new end to reconnect (a restarted standby has a new rkey).
 */
public final class VerbsWriterEnd implements WriterEnd {
    private static final Logger LOG = LoggerFactory.getLogger(VerbsWriterEnd.class);
    private static final int MAX_CHAIN = 3;

    private final String uri;
    private final VerbsSettings settings;
    private final RdmaEventChannel events;
    private final VerbsConnection connection;
    private final ByteBuffer image;
    private final IbvMr imageMr;
    private final ByteBuffer feedback;
    private final long ringAddress;
    private final int ringRkey;
    private final long resumePosition;
    private final SVCPostSend[] chains = new SVCPostSend[MAX_CHAIN + 1];
    private final SVCPostSend bell;
    private long bellsRung;
    private long bellsSkipped;
    private boolean bellRefused;
    private final int[] pendingOffsets = new int[MAX_CHAIN];
    private final int[] pendingLengths = new int[MAX_CHAIN];
    private final Thread watcher;
    private int pending;
    private final SendPacing sends;
    private volatile String failure;
    private volatile boolean closed;

    VerbsWriterEnd(String uri, VerbsSettings settings, RdmaEventChannel events, VerbsConnection connection,
                           ByteBuffer feedback, ByteBuffer image, IbvMr imageMr, long ringAddress, int ringRkey,
                           long resumePosition) throws IOException {
        this.resumePosition = resumePosition;
        this.uri = uri;
        this.settings = settings;
        this.events = events;
        this.connection = connection;
        this.feedback = feedback;
        this.image = image;
        this.imageMr = imageMr;
        this.ringAddress = ringAddress;
        this.ringRkey = ringRkey;
        this.sends = new SendPacing(settings.signalInterval());
        for (int n = 1; n <= MAX_CHAIN; n++) {
            LinkedList<IbvSendWR> wrs = new LinkedList<>();
            for (int i = 0; i < n; i++) {
                IbvSendWR wr = new IbvSendWR();
                wr.setOpcode(IbvSendWR.IBV_WR_RDMA_WRITE);
                wr.setSg_list(VerbsConnection.sges(imageMr.getAddr(), 0, imageMr.getLkey()));
                wr.setNum_sge(1);
                wr.getRdma().setRkey(ringRkey);
                wr.getRdma().setRemote_addr(ringAddress);
                wrs.add(wr);
            }
            chains[n] = connection.qp.postSend(wrs, null);
        }
        // the ring: the producer position written again (the same value: harmless whatever lands first), with the
        // immediate that completes one of the reader's doorbell receives
        IbvSendWR ring = new IbvSendWR();
        ring.setOpcode(IbvSendWR.IBV_WR_RDMA_WRITE_WITH_IMM);
        ring.setImm_data(DoorbellReceives.IMMEDIATE);
        ring.setSg_list(VerbsConnection.sges(imageMr.getAddr() + RingDescriptor.PRODUCER_POSITION_OFFSET, Long.BYTES, imageMr.getLkey()));
        ring.setNum_sge(1);
        ring.getRdma().setRkey(ringRkey);
        ring.getRdma().setRemote_addr(ringAddress + RingDescriptor.PRODUCER_POSITION_OFFSET);
        this.bell = connection.qp.postSend(new LinkedList<>(java.util.List.of(ring)), null);
        this.watcher = new Thread(this::watchEvents, "rdmarepl-verbs-writer-events " + uri);
        watcher.setDaemon(true);
        watcher.start();
    }

    /**
     * Connects to the standby at {@code uri}, retrying with back-off while nothing answers, until
     * {@link VerbsSettings#connectTimeoutMs()} ({@link WriterConnector}).
     *
     * @throws ChannelException naming the URI and why: unreachable, nothing listening, refused, wrong secret
     */
    public static VerbsWriterEnd connect(ChannelUri uri, ChannelSecurity security, VerbsSettings settings) {
        return WriterConnector.connect(uri, security, settings);
    }

    @Override
    public ByteBuffer ringImage() {
        return image;
    }

    @Override
    public void push(int regionOffset, int length) {
        String failed = failure;
        if (failed != null) {
            throw new ChannelException(failed);
        }
        pendingOffsets[pending] = regionOffset;
        pendingLengths[pending] = length;
        pending++;
        if (regionOffset == RingDescriptor.PRODUCER_POSITION_OFFSET || pending == MAX_CHAIN) {
            postPending();
        }
    }

    @Override
    public void flush() {
        String failed = failure;
        if (failed != null) {
            throw new ChannelException(failed);
        }
        if (pending > 0) {
            postPending();
        }
    }

    private void postPending() {
        int count = pending;
        pending = 0;
        try {
            awaitRoom(count);
            SVCPostSend chain = chains[count];
            for (int i = 0; i < count; i++) {
                SVCPostSend.SendWRMod wr = chain.getWrMod(i);
                wr.getSgeMod(0).setAddr(imageMr.getAddr() + pendingOffsets[i]);
                wr.getSgeMod(0).setLength(pendingLengths[i]);
                wr.getRdmaMod().setRemote_addr(ringAddress + pendingOffsets[i]);
                sends.number(wr, i == count - 1);
            }
            chain.execute();
            pollCompletions();
        } catch (IOException e) {
            throw fail("posting an RDMA WRITE to standby " + uri + " failed: " + e.getMessage());
        }
    }

    /**
     * Rings the reader's doorbell: one RDMA WRITE WITH IMMEDIATE, posted after the publish's writes on the same queue
     * pair, so that its completion on the reader's side comes after the frames landed. Only when the reader announced
     * an {@link ImmediateDoorbell} (an older reader posts no receives, and a ring would find none). Never blocks: with
     * the send queue full the ring is skipped, and the reader's bounded sleep covers it; a failure is kept for the next
     * push to throw.
     */
    @Override
    public void ringDoorbell() {
        if (failure != null || closed || bellRefused
                || feedback.getInt(FeedbackDescriptor.DOORBELL_ADDRESS_OFFSET) != ImmediateDoorbell.ADDRESS) {
            return;
        }
        try {
            if (sends.inFlight() + 1 > settings.sendQueueDepth() && (pollCompletions() == 0
                    || sends.inFlight() + 1 > settings.sendQueueDepth())) {
                bellsSkipped++;
                return;
            }
            sends.number(bell.getWrMod(0), true);
            try {
                bell.execute();
            } catch (IOException e) {
                // a device without WRITE WITH IMMEDIATE (some iWARP cards) refuses the post: the frames are fine
                bellRefused = true;
                LOG.warn("standby {}: its doorbell cannot be rung ({}); its idle reader's sleeps end at their bound instead",
                        uri, e.getMessage());
                return;
            }
            bellsRung++;
        } catch (IOException | ChannelException e) {
            fail("ringing the doorbell of standby " + uri + " failed: " + e.getMessage());
        }
    }

    /** Doorbell rings posted to the reader, and those skipped because the send queue was full. */
    public long bellsRung() {
        return bellsRung;
    }

    public long bellsSkipped() {
        return bellsSkipped;
    }

    /** Waits (spinning, bounded) until the send queue has room for {@code count} more work requests. */
    private void awaitRoom(int count) throws IOException {
        long deadlineNs = 0;
        while (sends.inFlight() + count > settings.sendQueueDepth()) {
            if (pollCompletions() == 0) {
                long nowNs = System.nanoTime();
                if (deadlineNs == 0) {
                    deadlineNs = nowNs + TimeUnit.MILLISECONDS.toNanos(settings.completionTimeoutMs());
                } else if (nowNs > deadlineNs) {
                    throw fail("no completion from standby " + uri + " for " + settings.completionTimeoutMs()
                            + " ms with the send queue full (" + sends.inFlight() + " writes in flight)");
                }
                Thread.onSpinWait();
            }
        }
    }

    private int pollCompletions() throws IOException {
        int polled = connection.poll.execute().getPolls();
        for (int i = 0; i < polled; i++) {
            IbvWC wc = connection.completions[i];
            if (wc.getStatus() != IbvWC.IbvWcStatus.IBV_WC_SUCCESS.ordinal()) {
                throw fail("RDMA WRITE to standby " + uri + " failed: " + VerbsErrors.describe(wc.getStatus()));
            }
            sends.retire(wc.getWr_id());
        }
        return polled;
    }

    private ChannelException fail(String reason) {
        if (failure == null) {
            failure = reason;
            LOG.warn("{}", reason);
        }
        return new ChannelException(failure);
    }

    /** The DiSNI provider this end runs on; the software one says it is an emulation (for /status). */
    public String provider() {
        return VerbsProviders.label(ChannelUri.parse(uri).transport());
    }

    /** Where the standby says a new writer starts (after the complete frames of the ring's epoch). */
    @Override
    public long resumePosition() {
        return resumePosition;
    }

    @Override
    public void checkHealth() {
        String failed = failure;
        if (failed != null) {
            throw new ChannelException(failed);
        }
    }

    /** The rkey the standby handed out for its ring (a restarted standby hands out a new one). */
    int ringRkey() {
        return ringRkey;
    }

    /** Why this end stopped, or null while it works. */
    public String failure() {
        return failure;
    }

    @Override
    public ByteBuffer feedbackRegion() {
        return feedback;
    }

    @Override
    public String uri() {
        return uri;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (pending > 0 && failure == null) {
            try {
                postPending();
            } catch (ChannelException e) {
                // reported through failure
            }
        }
        closed = true;
        connection.close();
        try {
            watcher.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        quietly(events::destroyEventChannel);
    }

    private void watchEvents() {
        while (!closed) {
            try {
                RdmaCmEvent event = events.getCmEvent(100);
                if (event == null) {
                    continue;
                }
                int type = event.getEvent();
                event.ackEvent();
                if (type == EventType.RDMA_CM_EVENT_DISCONNECTED.ordinal() && !closed) {
                    fail("standby " + uri + " disconnected");
                }
            } catch (IOException | RuntimeException e) {
                if (!closed) {
                    fail("lost the connection-manager events of " + uri + ": " + e);
                }
                return;
            }
        }
    }

    interface IoAction {
        int run() throws IOException;
    }

    static void quietly(IoAction action) {
        try {
            action.run();
        } catch (IOException | RuntimeException e) {
            // best effort on a path that already failed
        }
    }
}
