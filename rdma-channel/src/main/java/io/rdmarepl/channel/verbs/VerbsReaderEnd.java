package io.rdmarepl.channel.verbs;

import static io.rdmarepl.channel.verbs.HandshakeDescriptor.*;

import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmEvent.EventType;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaConnParam;
import com.ibm.disni.verbs.RdmaEventChannel;
import io.rdmarepl.channel.ChannelException;
import io.rdmarepl.channel.ChannelSecurity;
import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.channel.RingSettings;
import io.rdmarepl.channel.ring.Doorbell;
import io.rdmarepl.channel.ring.FeedbackDescriptor;
import io.rdmarepl.channel.ring.ReaderEnd;
import io.rdmarepl.channel.ring.RingDescriptor;
import io.rdmarepl.channel.ring.RingHeader;
import io.rdmarepl.channel.ring.RingScanner;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The standby's end over verbs: owns the ring in registered memory (LOCAL_WRITE | REMOTE_WRITE |
 * REMOTE_READ), listens with rdma_cm, and reveals the ring's address and rkey only to a writer
 * that proves the shared secret ({@link HandshakeDescriptor}). One writer at a time: a newly
 * authenticated writer replaces the previous one, whose queue pair is torn down. A conductor
 * thread handles connection events and handshakes; the polling thread only pushes feedback and sleeps on the
 * doorbell ({@link ImmediateDoorbell}) the writer rings with an RDMA WRITE WITH IMMEDIATE.
 */
public final class VerbsReaderEnd implements ReaderEnd {
    private static final Logger LOG = LoggerFactory.getLogger(VerbsReaderEnd.class);
    private final ChannelUri uri;
    private final String label;
    private final ChannelSecurity security;
    private final VerbsSettings settings;
    private final ByteBuffer ring;
    private final ByteBuffer feedbackImage = Pages.allocate(FeedbackDescriptor.REGION_LENGTH);
    private final ByteBuffer activationImage = Pages.allocate(FeedbackDescriptor.REGION_LENGTH);
    private final RdmaEventChannel events;
    private final RdmaCmId listenId;
    private final Map<RdmaCmId, VerbsConnection> pending = new HashMap<>();
    private final Thread conductor;
    private final int boundPort;
    private IbvPd pd;
    private IbvMr ringMr;
    private IbvMr feedbackMr;
    private IbvMr activationMr;
    private volatile FeedbackSession current;
    private final ImmediateDoorbell doorbell;
    /** The session the polling thread last wrote the sleep word to (polling thread only). */
    private FeedbackSession announcedTo;
    private final long feedbackIntervalNs;
    private long lastFeedbackNs;
    private volatile boolean feedbackOwed;
    private volatile boolean closed;
    private long refusedWriters;

    private VerbsReaderEnd(ChannelUri uri, RingSettings ringSettings, ChannelSecurity security, VerbsSettings settings) throws IOException {
        this.uri = uri;
        this.label = VerbsProviders.label(uri.transport());
        this.security = security;
        this.settings = settings;
        this.feedbackIntervalNs = settings.feedbackIntervalUs() * 1_000L;
        this.ring = Pages.allocate(RingDescriptor.regionLength(ringSettings.capacity()));
        RingHeader.initialise(ring, ringSettings.capacity(), ringSettings.epoch(), ringSettings.ringId());
        feedbackImage.putInt(FeedbackDescriptor.DOORBELL_ADDRESS_OFFSET, ImmediateDoorbell.ADDRESS);
        this.doorbell = new ImmediateDoorbell(() -> {
            FeedbackSession session = current;
            return session == null ? null : session.doorbell;
        });
        this.events = RdmaEventChannel.createEventChannel();
        this.listenId = events.createId(RdmaCm.RDMA_PS_TCP);
        InetSocketAddress address = new InetSocketAddress(uri.host(), uri.port());
        if (address.isUnresolved()) {
            throw new ChannelException("cannot resolve host '" + uri.host() + "' of " + uri);
        }
        listenId.bindAddr(address);
        listenId.listen(16);
        java.net.SocketAddress bound = listenId.getSource();
        this.boundPort = bound instanceof InetSocketAddress inet ? inet.getPort() : uri.port();
        if (listenId.getVerbs() != null) {
            registerRing(listenId);
        }
        this.conductor = new Thread(this::conduct, "rdmarepl-verbs-reader " + uri);
        conductor.setDaemon(true);
        conductor.start();
        LOG.info("standby ring {} listening over {}: capacity {} epoch {} id {}", uri(), label, ringSettings.capacity(),
                ringSettings.epoch(), ringSettings.ringId());
    }

    /** Creates the ring, registers it and starts listening for writers. */
    public static VerbsReaderEnd listen(ChannelUri uri, RingSettings ringSettings, ChannelSecurity security, VerbsSettings settings) {
        VerbsProviders.prepare(uri.transport());
        try {
            return new VerbsReaderEnd(uri, ringSettings, security, settings);
        } catch (IOException e) {
            throw new ChannelException("cannot listen for writers at " + uri + " over " + VerbsProviders.label(uri.transport())
                    + ": " + e.getMessage(), e);
        }
    }

    private void registerRing(RdmaCmId id) throws IOException {
        pd = id.getVerbs().allocPd();
        ringMr = pd.regMr(ring, IbvMr.IBV_ACCESS_LOCAL_WRITE | IbvMr.IBV_ACCESS_REMOTE_WRITE | IbvMr.IBV_ACCESS_REMOTE_READ)
                .execute().free().getMr();
        feedbackMr = pd.regMr(feedbackImage, IbvMr.IBV_ACCESS_LOCAL_WRITE).execute().free().getMr();
        activationMr = pd.regMr(activationImage, IbvMr.IBV_ACCESS_LOCAL_WRITE).execute().free().getMr();
    }

    @Override
    public ByteBuffer ringRegion() {
        return ring;
    }

    @Override
    public ByteBuffer feedbackImage() {
        return feedbackImage;
    }

    /**
     * Writes the feedback image into the writer's region, at most once per
     * {@link VerbsSettings#feedbackIntervalUs()} from the polling thread; a report held back is
     * written by the conductor thread within about a millisecond, so the last one always arrives.
     */
    @Override
    public void pushFeedback() {
        FeedbackSession session = current;
        if (session == null) {
            feedbackOwed = true; // a writer being admitted gets it once the handshake is done
            return;
        }
        long nowNs = System.nanoTime();
        if (nowNs - lastFeedbackNs >= feedbackIntervalNs) {
            lastFeedbackNs = nowNs;
            feedbackOwed = false;
            session.push(feedbackMr);
        } else {
            feedbackOwed = true;
        }
    }

    /**
     * Writes the sleep word (and the doorbell address) into the writer's region at once, from the polling thread:
     * unlike a report, never held back, since a writer that does not see the word does not ring. A kept word is
     * written again only to a writer that connected since it was written. The rings that came meanwhile are taken
     * first, without blocking, so that a reader that keeps finding frames just before it would sleep (and so never
     * waits on the doorbell) cannot let them use up its receives.
     */
    @Override
    public void announceSleep(boolean newWord) {
        FeedbackSession session = current;
        if (session == null) {
            return;
        }
        try {
            session.doorbell.takePendingRings(newWord);
        } catch (IOException e) {
            // the queue pair is failing: its doorbell parks from now on, and the disconnect follows
        }
        if (newWord || session != announcedTo) {
            announcedTo = session;
            session.pushDoorbellWords(feedbackMr);
        }
    }

    @Override
    public Doorbell doorbell() {
        return doorbell;
    }

    /** Conductor: writes a held-back report, from a copy taken while its CRC matched. */
    private void flushOwedFeedback() {
        FeedbackSession session = current;
        if (session != null && feedbackOwed) {
            feedbackOwed = false;
            if (copyValidFeedback()) {
                session.push(activationMr);
            } else {
                feedbackOwed = true;
            }
        }
    }

    /** The URI writers connect to (with the port actually bound when the URI said 0). */
    @Override
    public String uri() {
        return uri.transport().scheme() + "://" + uri.host() + ":" + boundPort;
    }

    /** The DiSNI provider this end runs on; the software one says it is an emulation (for /status). */
    public String provider() {
        return label;
    }

    /** True while an authenticated writer is connected. */
    public boolean hasWriter() {
        FeedbackSession session = current;
        return session != null && !session.isDead();
    }

    /** Writers disconnected because they did not prove the shared secret. */
    public synchronized long refusedWriters() {
        return refusedWriters;
    }

    @Override
    public void close() {
        closed = true;
        try {
            conductor.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        FeedbackSession session = current;
        current = null;
        if (session != null) {
            session.close();
        }
        pending.values().forEach(VerbsConnection::close);
        VerbsWriterEnd.quietly(listenId::destroyId);
        VerbsWriterEnd.quietly(events::destroyEventChannel);
        for (IbvMr mr : new IbvMr[] {ringMr, feedbackMr, activationMr}) {
            if (mr != null) {
                VerbsWriterEnd.quietly(() -> {
                    mr.deregMr().execute().free();
                    return 0;
                });
            }
        }
    }

    // ---- conductor thread ----

    private void conduct() {
        while (!closed) {
            try {
                RdmaCmEvent event = events.getCmEvent(current != null ? 1 : 100);
                flushOwedFeedback();
                if (event == null) {
                    continue;
                }
                int type = event.getEvent();
                RdmaCmId id = event.getConnIdPriv();
                event.ackEvent();
                if (type == EventType.RDMA_CM_EVENT_CONNECT_REQUEST.ordinal()) {
                    onConnectRequest(id);
                } else if (type == EventType.RDMA_CM_EVENT_ESTABLISHED.ordinal()) {
                    VerbsConnection connection = pending.remove(id);
                    if (connection != null) {
                        handshake(connection);
                    }
                } else if (type == EventType.RDMA_CM_EVENT_DISCONNECTED.ordinal()) {
                    onDisconnected(id);
                }
            } catch (IOException | RuntimeException e) {
                if (!closed) {
                    LOG.warn("standby {}: connection handling failed: {}", uri(), e.toString());
                }
            }
        }
    }

    private void onConnectRequest(RdmaCmId id) throws IOException {
        if (pd == null) {
            registerRing(id);
        }
        VerbsConnection connection = new VerbsConnection(id, pd, settings.sendQueueDepth());
        connection.postReceive();
        RdmaConnParam param = new RdmaConnParam();
        param.setRetry_count((byte) 7);
        param.setRnr_retry_count((byte) 7);
        id.accept(param);
        pending.put(id, connection);
    }

    private void handshake(VerbsConnection connection) {
        String peer = peer(connection.id);
        try {
            long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.handshakeTimeoutMs());
            byte[] readerNonce = new byte[NONCE_LENGTH];
            new SecureRandom().nextBytes(readerNonce);
            ByteBuffer out = connection.sendMessage;
            out.putInt(MAGIC_OFFSET, MAGIC).putInt(TYPE_OFFSET, CHALLENGE_TYPE).put(CHALLENGE_NONCE_OFFSET, readerNonce);
            connection.sendMessage(CHALLENGE_NONCE_OFFSET + NONCE_LENGTH, deadlineNs, "sending the challenge to " + peer);
            int length = connection.awaitMessage(deadlineNs, "waiting for the handshake of writer " + peer);
            ByteBuffer in = connection.receiveMessage;
            byte[] writerNonce = new byte[NONCE_LENGTH];
            byte[] proof = new byte[MAC_LENGTH];
            boolean proven = false;
            if (length >= HELLO_LENGTH && in.getInt(MAGIC_OFFSET) == MAGIC && in.getInt(TYPE_OFFSET) == HELLO_TYPE) {
                in.get(HELLO_NONCE_OFFSET, writerNonce);
                in.get(HELLO_MAC_OFFSET, proof);
                proven = security.verify(Handshake.helloProof(readerNonce, writerNonce, in.getLong(HELLO_FEEDBACK_ADDRESS_OFFSET),
                        in.getInt(HELLO_FEEDBACK_RKEY_OFFSET)), proof);
            }
            if (!proven) {
                synchronized (this) {
                    refusedWriters++;
                }
                LOG.warn("standby {}: refused writer {}: it did not prove the shared channel secret; disconnecting it", uri(), peer);
                out.putInt(TYPE_OFFSET, REFUSED_TYPE).putInt(REFUSED_REASON_OFFSET, REFUSED_BAD_PROOF);
                connection.sendMessage(REFUSED_REASON_OFFSET + Integer.BYTES, deadlineNs, "refusing writer " + peer);
                connection.close();
                return;
            }
            FeedbackSession session = new FeedbackSession(connection, peer, settings, feedbackMr,
                    in.getLong(HELLO_FEEDBACK_ADDRESS_OFFSET), in.getInt(HELLO_FEEDBACK_RKEY_OFFSET));
            FeedbackSession previous = current;
            current = null;
            if (previous != null) {
                LOG.info("standby {}: writer {} replaces writer {}", uri(), peer, previous.peer);
                previous.close();
            }
            long consumerPosition = copyValidFeedback() ? activationImage.getLong(FeedbackDescriptor.CONSUMER_POSITION_OFFSET) : 0;
            session.push(activationMr);
            session.pushDoorbellWords(feedbackMr); // the receives are posted: the writer may ring from now on

            out.putInt(TYPE_OFFSET, RING_TYPE);
            out.putLong(RING_ADDRESS_OFFSET, ringMr.getAddr());
            out.putInt(RING_RKEY_OFFSET, ringMr.getRkey());
            out.putInt(RING_CAPACITY_OFFSET, RingHeader.capacity(ring));
            out.putInt(RING_EPOCH_OFFSET, RingHeader.epoch(ring));
            out.putLong(RING_ID_OFFSET, RingHeader.ringId(ring));
            out.putLong(RING_RESUME_POSITION_OFFSET, RingScanner.resumePosition(ring, consumerPosition));
            byte[] fields = new byte[RING_MAC_OFFSET - BODY_OFFSET];
            out.get(BODY_OFFSET, fields);
            out.put(RING_MAC_OFFSET, security.sign(Handshake.ringProof(writerNonce, readerNonce, fields)));
            connection.sendMessage(RING_LENGTH, deadlineNs, "sending the ring description to " + peer);
            current = session;
            LOG.info("standby {}: writer {} connected over {} (epoch {})", uri(), peer, label, RingHeader.epoch(ring));
        } catch (IOException | RuntimeException e) {
            LOG.warn("standby {}: handshake with writer {} failed: {}", uri(), peer, e.getMessage());
            connection.close();
        }
    }

    /** Copies the feedback image as of a moment its CRC matched (the polling thread may be writing it). */
    private boolean copyValidFeedback() {
        CRC32C crc = new CRC32C();
        for (int attempt = 0; attempt < 1_000; attempt++) {
            activationImage.put(0, feedbackImage, 0, FeedbackDescriptor.REGION_LENGTH);
            crc.reset();
            crc.update(activationImage.duplicate().clear().limit(FeedbackDescriptor.CRC_OFFSET));
            if ((int) crc.getValue() == activationImage.getInt(FeedbackDescriptor.CRC_OFFSET)) {
                return true;
            }
            Thread.onSpinWait();
        }
        return false;
    }

    private void onDisconnected(RdmaCmId id) {
        VerbsConnection waiting = pending.remove(id);
        if (waiting != null) {
            waiting.close();
            return;
        }
        FeedbackSession session = current;
        if (session != null && session.connection.id == id) {
            current = null;
            LOG.info("standby {}: writer {} disconnected", uri(), session.peer);
            session.close();
        }
    }

    private static String peer(RdmaCmId id) {
        try {
            return String.valueOf(id.getDestination());
        } catch (IOException | RuntimeException e) {
            return "(unknown peer)";
        }
    }
}
