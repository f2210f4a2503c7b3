package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.shipper.capture.pgoutput.ReplicationException.Reason;
import java.io.EOFException;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;

/**
 * A plain backend session to the primary whose one job is to be answered: a Sync message, to which an idle backend
 * answers ReadyForQuery without parsing, planning or starting a transaction.
 * <pre>
 *   Sync, frontend to backend:           ReadyForQuery, backend to frontend:
 *     offset size field                    offset size field
 *          0    1 type    'S'                   0    1 type    'Z'
 *          1    4 length  4                     1    4 length  5
 *                                               5    1 status  'I' idle, 'T' in a transaction, 'E' failed one
 * </pre>
 * A Sync is sent and its answer collected on the next call, so a check costs its caller one wake-up (the periodic
 * one) and no wait for the round trip: {@link #collect()} reads only what the socket already holds. At most one
 * Sync is in flight. One thread uses a ping.
 *
 * <p>Allocation: none per check, once the session is open. An error allocates.
 */
public final class PrimaryPing implements AutoCloseable {
    private static final byte[] SYNC = {'S', 0, 0, 0, 4};
    private static final String POSTMASTER_START_SQL = "SELECT extract(epoch FROM pg_catalog.pg_postmaster_start_time())";

    private final ReplicationEndpoint endpoint;
    private final WireSession wire;
    private long sentNs;
    private boolean inFlight;

    private PrimaryPing(ReplicationEndpoint endpoint, WireSession wire) {
        this.endpoint = endpoint;
        this.wire = wire;
    }

    /**
     * Opens a plain session to {@code endpoint}'s server and database (TLS and authentication as for replication),
     * named {@code applicationName} in {@code pg_stat_activity}.
     *
     * @param answerTimeout how long a partly received answer may take to complete before the session counts as broken
     * @throws ReplicationException naming the server, and its own error when it sent one
     */
    public static PrimaryPing open(ReplicationEndpoint endpoint, String applicationName, Duration answerTimeout)
        throws ReplicationException {
        ReplicationEndpoint plain = endpoint.plainSession(applicationName);
        WireSession wire = WireSession.open(plain);
        try {
            wire.tcp().setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, answerTimeout.toMillis())));
        } catch (IOException ex) {
            WireSession.closeQuietly(wire.tcp());
            throw new ReplicationException(Reason.NETWORK, plain.title() + ": " + ex, ex);
        }
        return new PrimaryPing(plain, wire);
    }

    /** The backend process serving this session, as the server reported it at startup. */
    public int backendPid() {
        return wire.startup().backendPid();
    }

    /**
     * When the server's postmaster started ({@code pg_postmaster_start_time()}): asked before any ping is in flight.
     *
     * @throws ReplicationException with the server's error, or when the session broke
     */
    public Instant postmasterStart() throws ReplicationException {
        if (inFlight) {
            throw new IllegalStateException("a ping is in flight");
        }
        try {
            List<String[]> rows = SimpleQuery.rows(endpoint, wire.reader(), wire.writer(), new HashMap<>(), POSTMASTER_START_SQL);
            BigDecimal seconds = new BigDecimal(rows.get(0)[0]);
            return Instant.ofEpochSecond(seconds.longValue(), seconds.remainder(BigDecimal.ONE).movePointRight(9).longValue());
        } catch (ReplicationException ex) {
            throw ex;
        } catch (IOException | RuntimeException ex) {
            throw broken(ex, "asking for the postmaster's start time");
        }
    }

    /**
     * Collects the answer to the Sync in flight if the socket already holds it, without waiting for one that has not
     * begun to arrive; then, if none is in flight, sends the next Sync.
     *
     * @return whether the Sync sent last time was answered by now (true too on the first call)
     * @throws ReplicationException when the session broke or the server sent an error (a terminated backend, a
     *                              shutdown): the ping is unusable then
     */
    public boolean collectAndSend(long nowNs) throws ReplicationException {
        boolean answered = !inFlight;
        try {
            if (inFlight && answerWaiting()) {
                readUntilReady();
                inFlight = false;
                answered = true;
            }
            if (!inFlight) {
                wire.writer().write(SYNC, 0, SYNC.length);
                inFlight = true;
                sentNs = nowNs;
            }
            return answered;
        } catch (ReplicationException ex) {
            close();
            throw ex;
        } catch (IOException ex) {
            throw broken(ex, "pinging");
        }
    }

    /** When the Sync in flight was sent, or 0 when none is. */
    public long inFlightSinceNs() {
        return inFlight ? sentNs : 0;
    }

    /** Bytes already received: framed, decrypted, or still in the kernel's socket buffer (encrypted under TLS). */
    private boolean answerWaiting() throws IOException {
        return wire.reader().hasBufferedMessage() || wire.reader().anythingWaits();
    }

    /** Reads up to ReadyForQuery; a notice or a parameter report on the way is skipped, an error ends the ping. */
    private void readUntilReady() throws IOException {
        while (true) {
            byte type = wire.reader().next();
            switch (type) {
                case 'Z' -> {
                    return;
                }
                case 'N', 'S', 'A' -> {
                    // a notice, a parameter report or a notification: not an answer, and nothing to act on
                }
                case 'E' -> throw ReplicationException.fromServer(endpoint, "pinging",
                    ServerError.parse(wire.reader().array(), wire.reader().bodyOffset(), wire.reader().bodyLength()), false);
                default -> throw new ReplicationException(Reason.PROTOCOL, endpoint.title()
                    + ": unexpected message type '" + BackendReader.printable(type) + "' in answer to a Sync");
            }
        }
    }

    private ReplicationException broken(Exception ex, String doing) {
        close();
        if (ex instanceof EOFException) {
            return new ReplicationException(Reason.SERVER_ENDED, endpoint.title()
                + ": the server closed the connection without an error message while " + doing, ex);
        }
        if (ex instanceof SocketTimeoutException) {
            return new ReplicationException(Reason.TIMEOUT, endpoint.title() + ": an answer began but did not complete while "
                + doing, ex);
        }
        return new ReplicationException(Reason.NETWORK, endpoint.title() + ": " + ex + " while " + doing, ex);
    }

    /** Closes the socket (no goodbye: the server takes a closed socket as the session's end). */
    @Override
    public void close() {
        WireSession.closeQuietly(wire.tcp());
    }
}
