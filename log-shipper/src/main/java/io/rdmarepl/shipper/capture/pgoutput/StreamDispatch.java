package io.rdmarepl.shipper.capture.pgoutput;

import static io.rdmarepl.shipper.capture.pgoutput.CopyDataDescriptor.KEEPALIVE;
import static io.rdmarepl.shipper.capture.pgoutput.CopyDataDescriptor.KEEPALIVE_LENGTH;
import static io.rdmarepl.shipper.capture.pgoutput.CopyDataDescriptor.KEEPALIVE_REPLY_REQUESTED_OFFSET;
import static io.rdmarepl.shipper.capture.pgoutput.CopyDataDescriptor.KEEPALIVE_SEND_TIME_OFFSET;
import static io.rdmarepl.shipper.capture.pgoutput.CopyDataDescriptor.KEEPALIVE_WAL_END_OFFSET;
import static io.rdmarepl.shipper.capture.pgoutput.CopyDataDescriptor.XLOG_DATA;
import static io.rdmarepl.shipper.capture.pgoutput.CopyDataDescriptor.XLOG_HEADER_LENGTH;
import static io.rdmarepl.shipper.capture.pgoutput.CopyDataDescriptor.XLOG_SEND_TIME_OFFSET;
import static io.rdmarepl.shipper.capture.pgoutput.CopyDataDescriptor.XLOG_WAL_END_OFFSET;
import static io.rdmarepl.shipper.capture.pgoutput.CopyDataDescriptor.XLOG_WAL_START_OFFSET;

import io.rdmarepl.format.Lsn;
import io.rdmarepl.shipper.capture.pgoutput.ReplicationException.Reason;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reading side of a streaming connection: frames backend messages and dispatches them, XLogData to the
 * handler, keepalives answered then reported ({@link CopyDataDescriptor} has the layouts); anything that ends the
 * stream (ErrorResponse, CopyDone, an unknown message) becomes a {@link ReplicationException}. The reading thread
 * only; the counters it publishes are read by others.
 */
final class StreamDispatch {
    private static final Logger LOG = LoggerFactory.getLogger(StreamDispatch.class);

    private final ReplicationEndpoint endpoint;
    private final BackendReader reader;
    private final StandbyStatus status;
    private final Map<String, String> parameters;
    private final AtomicLong messagesReceived = new AtomicLong();
    private final AtomicLong serverWalEnd = new AtomicLong();

    StreamDispatch(ReplicationEndpoint endpoint, BackendReader reader, StandbyStatus status, Map<String, String> parameters) {
        this.endpoint = endpoint;
        this.reader = reader;
        this.status = status;
        this.parameters = parameters;
    }

    /** See {@link ReplicationConnection#poll(XLogDataHandler)}. */
    int poll(XLogDataHandler handler) throws IOException {
        int handled = 0;
        do {
            byte type = reader.next();
            messagesReceived.lazySet(messagesReceived.get() + 1);
            if (type == CopyDataDescriptor.COPY_DATA) {
                onCopyData(handler);
                handled++;
            } else {
                onOtherMessage(type);
            }
        } while (reader.hasBufferedMessage());
        return handled;
    }

    long messagesReceived() {
        return messagesReceived.get();
    }

    long serverWalEnd() {
        return serverWalEnd.get();
    }

    private void onCopyData(XLogDataHandler handler) throws IOException {
        ByteBuffer view = reader.view();
        int body = reader.bodyOffset();
        int length = reader.bodyLength();
        byte kind = length > 0 ? view.get(body) : 0;
        if (kind == XLOG_DATA && length >= XLOG_HEADER_LENGTH) {
            long walStart = view.getLong(body + XLOG_WAL_START_OFFSET);
            long walEnd = view.getLong(body + XLOG_WAL_END_OFFSET);
            long sendTimeUs = view.getLong(body + XLOG_SEND_TIME_OFFSET);
            raiseServerWalEnd(walEnd);
            int payloadOffset = body + XLOG_HEADER_LENGTH;
            int payloadLength = length - XLOG_HEADER_LENGTH;
            view.limit(payloadOffset + payloadLength).position(payloadOffset);
            handler.onXLogData(walStart, walEnd, sendTimeUs, view, payloadOffset, payloadLength);
        } else if (kind == KEEPALIVE && length >= KEEPALIVE_LENGTH) {
            long walEnd = view.getLong(body + KEEPALIVE_WAL_END_OFFSET);
            long sendTimeUs = view.getLong(body + KEEPALIVE_SEND_TIME_OFFSET);
            boolean replyRequested = view.get(body + KEEPALIVE_REPLY_REQUESTED_OFFSET) != 0;
            raiseServerWalEnd(walEnd);
            if (replyRequested) {
                status.resend(false);
            }
            handler.onKeepalive(walEnd, sendTimeUs, replyRequested);
        } else {
            throw new ReplicationException(Reason.PROTOCOL, endpoint.title()
                + ": unknown or short CopyData message '" + BackendReader.printable(kind) + "' of " + length + " bytes");
        }
    }

    private void onOtherMessage(byte type) throws ReplicationException {
        switch (type) {
            case 'E' -> throw ReplicationException.fromServer(endpoint, "streaming",
                ServerError.parse(reader.array(), reader.bodyOffset(), reader.bodyLength()), false);
            case 'c' -> throw new ReplicationException(Reason.SERVER_ENDED, endpoint.title()
                + ": the server ended the stream (CopyDone)");
            case 'N' -> LOG.warn("replication connection to {}: the server says: {}", endpoint.describe(),
                ServerError.parse(reader.array(), reader.bodyOffset(), reader.bodyLength()).describe());
            case 'S' -> StartupHandshake.putParameter(reader, parameters);
            case 'A' -> {
                // a notification: not for us
            }
            default -> throw new ReplicationException(Reason.PROTOCOL, endpoint.title()
                + ": unexpected message type '" + BackendReader.printable(type) + "' while streaming");
        }
    }

    private void raiseServerWalEnd(long walEnd) {
        long current = serverWalEnd.get();
        if (Lsn.compare(walEnd, current) > 0) {
            serverWalEnd.lazySet(walEnd);
        }
    }
}
