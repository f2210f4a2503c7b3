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
import io.rdmarepl.channel.ring.FeedbackDescriptor;
import io.rdmarepl.channel.ring.RingDescriptor;
import io.rdmarepl.channel.ring.RingHeader;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a shipper's {@link VerbsWriterEnd} comes to be: rdma_cm address and route resolution, the connection, the
 * handshake ({@link HandshakeDescriptor}: the standby's challenge, this side's proof of the shared secret and its
 * feedback region, the standby's signed ring description), then the registered image the writer stages frames in.
 * Attempts that may succeed later (nothing listening yet, a standby restarting) are retried with back-off.
 */
final class WriterConnector {
    private static final Logger LOG = LoggerFactory.getLogger(WriterConnector.class);

    private WriterConnector() {
    }

    /**
     * Connects to the standby at {@code uri}, retrying with back-off while nothing answers, until
     * {@link VerbsSettings#connectTimeoutMs()}.
     *
     * @throws ChannelException naming the URI and why: unreachable, nothing listening, refused, wrong secret
     */
    static VerbsWriterEnd connect(ChannelUri uri, ChannelSecurity security, VerbsSettings settings) {
        VerbsProviders.prepare(uri.transport());
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.connectTimeoutMs());
        long backoffMs = 20;
        while (true) {
            try {
                return attempt(uri, security, settings);
            } catch (Retryable e) {
                if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoffMs) > deadlineNs) {
                    throw new ChannelException("cannot connect to standby " + uri + " within " + settings.connectTimeoutMs()
                            + " ms: " + e.getMessage() + " (" + VerbsProviders.label(uri.transport()) + ")");
                }
                LOG.debug("connecting to {}: {}; retrying in {} ms", uri, e.getMessage(), backoffMs);
                sleepMs(backoffMs);
                backoffMs = Math.min(backoffMs * 2, 1_000);
            } catch (IOException e) {
                throw new ChannelException("cannot connect to standby " + uri + ": " + e.getMessage(), e);
            }
        }
    }

    private static VerbsWriterEnd attempt(ChannelUri uri, ChannelSecurity security, VerbsSettings settings) throws IOException {
        RdmaEventChannel events = RdmaEventChannel.createEventChannel();
        RdmaCmId id = events.createId(RdmaCm.RDMA_PS_TCP);
        VerbsConnection connection = null;
        boolean done = false;
        try {
            InetSocketAddress destination = new InetSocketAddress(uri.host(), uri.port());
            if (destination.isUnresolved()) {
                throw new ChannelException("cannot resolve host '" + uri.host() + "' of " + uri);
            }
            id.resolveAddr(null, destination, settings.handshakeTimeoutMs());
            expect(events, EventType.RDMA_CM_EVENT_ADDR_RESOLVED, settings, uri, "address resolution");
            id.resolveRoute(settings.handshakeTimeoutMs());
            expect(events, EventType.RDMA_CM_EVENT_ROUTE_RESOLVED, settings, uri, "route resolution");
            IbvPd pd = id.getVerbs().allocPd();
            connection = new VerbsConnection(id, pd, settings.sendQueueDepth());
            ByteBuffer feedback = Pages.allocate(FeedbackDescriptor.REGION_LENGTH);
            IbvMr feedbackMr = connection.register(feedback, IbvMr.IBV_ACCESS_LOCAL_WRITE | IbvMr.IBV_ACCESS_REMOTE_WRITE);
            connection.postReceive();
            RdmaConnParam param = new RdmaConnParam();
            param.setRetry_count((byte) 7);
            param.setRnr_retry_count((byte) 7);
            id.connect(param);
            expect(events, EventType.RDMA_CM_EVENT_ESTABLISHED, settings, uri, "connection");

            long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.handshakeTimeoutMs());
            ByteBuffer in = connection.receiveMessage;
            connection.awaitMessage(deadlineNs, "waiting for the standby's challenge from " + uri);
            requireType(in, CHALLENGE_TYPE, uri);
            byte[] readerNonce = new byte[NONCE_LENGTH];
            in.get(CHALLENGE_NONCE_OFFSET, readerNonce);
            byte[] writerNonce = new byte[NONCE_LENGTH];
            new SecureRandom().nextBytes(writerNonce);

            ByteBuffer out = connection.sendMessage;
            out.putInt(MAGIC_OFFSET, MAGIC).putInt(TYPE_OFFSET, HELLO_TYPE);
            out.put(HELLO_NONCE_OFFSET, writerNonce);
            out.putLong(HELLO_FEEDBACK_ADDRESS_OFFSET, feedbackMr.getAddr());
            out.putInt(HELLO_FEEDBACK_RKEY_OFFSET, feedbackMr.getRkey());
            out.put(HELLO_MAC_OFFSET, security.sign(Handshake.helloProof(readerNonce, writerNonce, feedbackMr.getAddr(), feedbackMr.getRkey())));
            connection.postReceive();
            connection.sendMessage(HELLO_LENGTH, deadlineNs, "sending the handshake to " + uri);
            connection.awaitMessage(deadlineNs, "waiting for the standby's ring description from " + uri);
            if (in.getInt(TYPE_OFFSET) == REFUSED_TYPE) {
                throw new ChannelException("standby " + uri + " refused this shipper: the shared channel secrets differ");
            }
            requireType(in, RING_TYPE, uri);
            byte[] ringFields = new byte[RING_MAC_OFFSET - BODY_OFFSET];
            in.get(BODY_OFFSET, ringFields);
            byte[] proof = new byte[MAC_LENGTH];
            in.get(RING_MAC_OFFSET, proof);
            if (!security.verify(Handshake.ringProof(writerNonce, readerNonce, ringFields), proof)) {
                throw new ChannelException("standby " + uri + " did not prove the shared channel secret: refusing to write to it");
            }
            int capacity = in.getInt(RING_CAPACITY_OFFSET);
            RingDescriptor.checkCapacity(capacity);
            ByteBuffer image = Pages.allocate(RingDescriptor.regionLength(capacity));
            RingHeader.initialise(image, capacity, in.getInt(RING_EPOCH_OFFSET), in.getLong(RING_ID_OFFSET));
            long resumePosition = in.getLong(RING_RESUME_POSITION_OFFSET);
            RingHeader.producerPosition(image, resumePosition);
            IbvMr imageMr = connection.register(image, IbvMr.IBV_ACCESS_LOCAL_WRITE);
            VerbsWriterEnd end = new VerbsWriterEnd(uri.text(), settings, events, connection, feedback, image, imageMr,
                    in.getLong(RING_ADDRESS_OFFSET), in.getInt(RING_RKEY_OFFSET), resumePosition);
            LOG.info("connected to standby {} over {}: ring capacity {} epoch {} id {}", uri,
                    VerbsProviders.label(uri.transport()), capacity, RingHeader.epoch(image), RingHeader.ringId(image));
            done = true;
            return end;
        } finally {
            if (!done) {
                if (connection != null) {
                    connection.close();
                } else {
                    VerbsWriterEnd.quietly(id::destroyId);
                }
                VerbsWriterEnd.quietly(events::destroyEventChannel);
            }
        }
    }


    private static void expect(RdmaEventChannel events, EventType expected, VerbsSettings settings, ChannelUri uri, String step)
            throws IOException {
        RdmaCmEvent event = events.getCmEvent(settings.handshakeTimeoutMs());
        if (event == null) {
            throw new Retryable(step + " timed out after " + settings.handshakeTimeoutMs() + " ms");
        }
        int type = event.getEvent();
        int status = event.getStatus();
        event.ackEvent();
        if (type == expected.ordinal()) {
            return;
        }
        String name = type >= 0 && type < EventType.values().length ? EventType.values()[type].name() : "event " + type;
        if (type == EventType.RDMA_CM_EVENT_REJECTED.ordinal()) {
            throw new Retryable("nothing accepts connections at " + uri.host() + ":" + uri.port() + " (" + name + ", status " + status + ")");
        }
        throw new Retryable(step + " failed: " + name + " (status " + status + "): " + uri + " is unreachable");
    }

    private static void requireType(ByteBuffer message, int type, ChannelUri uri) {
        if (message.getInt(MAGIC_OFFSET) != MAGIC || message.getInt(TYPE_OFFSET) != type) {
            throw new ChannelException("peer at " + uri + " is not an rdmarepl standby (unexpected handshake message type "
                    + message.getInt(TYPE_OFFSET) + ")");
        }
    }

    private static void sleepMs(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ChannelException("interrupted while connecting");
        }
    }

    /** A connection attempt that may succeed later (standby not up yet, or restarting). */
    static final class Retryable extends IOException {
        Retryable(String message) {
            super(message);
        }
    }
}
