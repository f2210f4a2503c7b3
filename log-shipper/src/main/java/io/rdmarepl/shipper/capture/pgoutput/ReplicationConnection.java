package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.shipper.capture.pgoutput.ReplicationException.Reason;
import java.io.EOFException;
import java.io.IOException;
import io.rdmarepl.config.postgres.UnixSocket;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A logical replication connection owned by the shipper: PostgreSQL's frontend/backend protocol over a socket,
 * {@code replication=database}, the walsender's session pinned to fixed text formats ({@link SessionSettings}).
 *
 * <pre>
 *   open(endpoint) ── simpleQuery(...)* ── startLogical(slot, lsn, options) ── poll(handler)* ── close()
 *                                                                            sendStatus(...) from any thread
 * </pre>
 *
 * <p>Threads. One thread opens, runs commands and starts streaming; then exactly one thread calls {@link #poll},
 * blocking on the socket with no timeout and no polling sleep. {@link #sendStatus} is safe from any thread at any
 * time while streaming: it takes only the output side's lock, which the reader holds only for the few microseconds
 * of answering a keepalive, so an acknowledgement reaches the server the moment it exists, never waiting for the
 * server's next message. {@link #close()} is safe from any thread and wakes a blocked reader. A small daemon
 * thread ({@link StatusTimer}) sends the periodic status and enforces the receive timeout.
 *
 * <p>Allocation. In steady state the read path allocates nothing: messages are framed in one receive buffer that
 * grows only when a larger message arrives, the handler gets that buffer, and keepalive answers are built in place
 * in a fixed frame; {@code sendStatus} allocates nothing either. (Measured by ReplicationConnectionIT on plain TCP
 * through the reading thread's allocation counter; JSSE allocates per TLS record on its own.) Errors allocate.
 */
public final class ReplicationConnection implements AutoCloseable {
    /** How long {@link #close()} waits for the output lock to say goodbye before it simply closes the socket. */
    static final long GOODBYE_LOCK_TIMEOUT_MS = 100;
    /** CopyDone then Terminate: what a polite client sends when it stops streaming. */
    private static final byte[] GOODBYE_STREAMING = {'c', 0, 0, 0, 4, 'X', 0, 0, 0, 4};
    private static final byte[] GOODBYE = {'X', 0, 0, 0, 4};
    private static final Logger LOG = LoggerFactory.getLogger(ReplicationConnection.class);

    private enum State { COMMANDS, STREAMING, CLOSED }

    private final ReplicationEndpoint endpoint;
    private final Socket tcp;
    private final BackendReader reader;
    private final FrontendWriter writer;
    private final StandbyStatus status;
    private final int backendPid;
    private final Map<String, String> parameters;
    private final StreamDispatch stream;
    private final AtomicReference<ReplicationException> closeCause = new AtomicReference<>();
    private volatile State state = State.COMMANDS;
    private volatile StatusTimer timer;

    private ReplicationConnection(ReplicationEndpoint endpoint, Socket tcp, BackendReader reader,
        FrontendWriter writer, StartupHandshake.Session session) {
        this.endpoint = endpoint;
        this.tcp = tcp;
        this.reader = reader;
        this.writer = writer;
        this.status = new StandbyStatus(writer, System.nanoTime());
        this.backendPid = session.backendPid();
        this.parameters = new ConcurrentHashMap<>(session.parameters());
        this.stream = new StreamDispatch(endpoint, reader, status, parameters);
    }

    /**
     * Connects, negotiates TLS per the sslmode, authenticates and waits until the walsender is ready. The endpoint's
     * connect timeout bounds the TCP connect and each wait for the server during TLS and authentication (a socket
     * read timeout, cleared once the session is ready).
     *
     * @throws ReplicationException naming host:port, user and database, and the server's own error when it sent one
     */
    public static ReplicationConnection open(ReplicationEndpoint endpoint) throws ReplicationException {
        WireSession wire = WireSession.open(endpoint);
        ReplicationConnection connection = new ReplicationConnection(endpoint, wire.tcp(), wire.reader(), wire.writer(), wire.startup());
        LOG.debug("opened {} (walsender pid {}, server {})", endpoint, connection.backendPid,
            wire.startup().parameters().get("server_version"));
        return connection;
    }

    /**
     * Runs a replication command or SQL through the simple query protocol, before streaming starts:
     * {@code IDENTIFY_SYSTEM}, {@code CREATE_REPLICATION_SLOT s LOGICAL pgoutput (SNAPSHOT 'export')},
     * {@code SHOW server_version_num}, ...
     *
     * @return the rows of every result set, in order, as text; null for NULL
     * @throws ReplicationException with the server's error; the connection stays usable after a server error
     */
    public List<String[]> simpleQuery(String sql) throws ReplicationException {
        requireState(State.COMMANDS, "simpleQuery");
        try {
            return SimpleQuery.rows(endpoint, reader, writer, parameters, sql);
        } catch (ReplicationException ex) {
            throw keepIfAnswered(ex, "running " + SimpleQuery.describe(sql));
        } catch (IOException ex) {
            throw fail(ex, "running " + SimpleQuery.describe(sql));
        }
    }

    /**
     * {@code START_REPLICATION SLOT slot LOGICAL startLsn (options)}, then waits for the server to start
     * streaming. The plugin options are passed as given, names quoted as identifiers and values as literals, e.g.
     * {@code proto_version '4'}, {@code publication_names '"orders"'}, {@code messages 'true'}, {@code streaming 'on'}.
     *
     * @throws ReplicationException with the server's error (no such slot, slot active for another PID, unknown
     *                              publication, unsupported proto_version); the connection stays usable then
     */
    public void startLogical(String slot, long startLsn, Map<String, String> pluginOptions) throws ReplicationException {
        requireState(State.COMMANDS, "startLogical");
        String command = ReplicationCommands.startLogical(slot, startLsn, pluginOptions);
        try {
            SimpleQuery.startCopyBoth(endpoint, reader, writer, parameters, command);
        } catch (ReplicationException ex) {
            throw keepIfAnswered(ex, "running " + SimpleQuery.describe(command));
        } catch (IOException ex) {
            throw fail(ex, "running " + SimpleQuery.describe(command));
        }
        state = State.STREAMING;
        StatusTimer started = new StatusTimer("rdmarepl-replication-status-" + endpoint.applicationName(), status,
            stream::messagesReceived, new TimerActions(), endpoint.statusInterval().toNanos(),
            endpoint.receiveTimeout().toNanos());
        timer = started;
        started.start();
        if (closeCause.get() != null) {
            // closed from another thread meanwhile: abort() may have run before state and timer were set
            state = State.CLOSED;
            started.stop();
        }
    }

    /** Reads of the stream pause briefly while it is late by {@code lateUs} (reading thread): see {@link BackendReader#paceBy}. */
    public void paceReadsBy(LongSupplier lateUs) {
        boolean unixSocket = tcp instanceof UnixSocket;
        reader.paceBy(lateUs, unixSocket, BackendReader.backlogBite(endpoint.receiveBufferBytes(), unixSocket));
    }

    /**
     * Blocks until at least one message arrives, then handles it and every further message already complete in the
     * receive buffer, without blocking again. XLogData goes to {@link XLogDataHandler#onXLogData}; a keepalive is
     * answered at once when it asks for a reply, then goes to {@link XLogDataHandler#onKeepalive}. The reading
     * thread only. An exception from the handler propagates; its message counts as consumed.
     *
     * @return how many CopyData messages (XLogData and keepalives) were handled; 0 when only notices came
     * @throws ReplicationException when the stream ends: the server's error (terminated backend, ...), its CopyDone
     *                              or end of stream, a network failure, the receive timeout, or {@link #close()}.
     *                              The connection is closed then.
     */
    public int poll(XLogDataHandler handler) throws ReplicationException {
        if (state != State.STREAMING) {
            requireState(State.STREAMING, "poll");
        }
        try {
            return stream.poll(handler);
        } catch (IOException ex) {
            throw fail(ex, "streaming");
        }
    }

    /**
     * Sends a standby status update now, from any thread: written, flushed and applied positions ("last byte + 1";
     * the slot's {@code confirmed_flush_lsn} follows {@code flushedLsn}). Each position is raised to at least what
     * was sent before, never lowered. Nothing is sent when no position moved and no reply is requested.
     *
     * @param replyRequested ask the server for a keepalive at once
     * @return whether an update was written
     * @throws ReplicationException when the connection is closed or the socket fails
     * @throws IllegalStateException before {@link #startLogical}
     */
    public boolean sendStatus(long writtenLsn, long flushedLsn, long appliedLsn, boolean replyRequested)
        throws ReplicationException {
        if (state != State.STREAMING) {
            requireState(State.STREAMING, "sendStatus");
        }
        try {
            return status.send(writtenLsn, flushedLsn, appliedLsn, replyRequested, false);
        } catch (IOException ex) {
            throw fail(ex, "sending a status update");
        }
    }

    /**
     * Ends the connection: CopyDone and Terminate when the output side is free, then closes the socket, which wakes
     * a reader blocked in {@link #poll} with {@link Reason#CLOSED}. Idempotent; safe from any thread.
     */
    @Override
    public void close() {
        abort(new ReplicationException(Reason.CLOSED, endpoint.title()
            + " was closed by close()"), true);
    }

    /** @return whether {@link #close()} was called or the connection failed */
    public boolean isClosed() {
        return closeCause.get() != null;
    }

    public boolean isStreaming() {
        return state == State.STREAMING;
    }

    public ReplicationEndpoint endpoint() {
        return endpoint;
    }

    /** @return the walsender's process id (BackendKeyData): {@code pg_stat_replication.pid} */
    public int backendPid() {
        return backendPid;
    }

    /** @return a parameter the server reported (ParameterStatus), e.g. {@code server_version}, or null */
    public String serverParameter(String name) {
        return parameters.get(name);
    }

    /** @return the highest end of WAL the server reported (keepalives, XLogData); 0 before any */
    public long serverWalEnd() {
        return stream.serverWalEnd();
    }

    /** @return the positions last sent (monotonic) */
    public long sentFlushedLsn() {
        return status.flushed();
    }

    public long sentWrittenLsn() {
        return status.written();
    }

    public long sentAppliedLsn() {
        return status.applied();
    }

    /** @return status updates written so far (acknowledgements, keepalive answers, periodic) */
    public long statusUpdatesSent() {
        return status.sentCount();
    }

    /** @return backend messages received while streaming */
    public long messagesReceived() {
        return stream.messagesReceived();
    }

    /** @return the receive buffer's current size: it grows only for a message larger than it */
    public int receiveBufferCapacity() {
        return reader.capacity();
    }

    @Override
    public String toString() {
        return "ReplicationConnection[" + endpoint.describe() + ", walsender pid " + backendPid + ", " + state + "]";
    }

    private void requireState(State expected, String operation) throws ReplicationException {
        State current = state;
        if (current == expected) {
            return;
        }
        if (current == State.CLOSED) {
            ReplicationException cause = closeCause.get();
            throw new ReplicationException(cause == null ? Reason.CLOSED : cause.reason(), operation
                + " on a closed connection: " + (cause == null ? "closed" : cause.getMessage()), cause);
        }
        throw new IllegalStateException(operation + " needs the connection "
            + (expected == State.STREAMING ? "streaming (call startLogical first)" : "not yet streaming") + ": " + this);
    }

    /**
     * A server error answered in full (the exchange ended with ReadyForQuery) leaves the connection usable; anything
     * else closes it.
     */
    private ReplicationException keepIfAnswered(ReplicationException ex, String doing) {
        return ex.serverError().isPresent() && closeCause.get() == null ? ex : fail(ex, doing);
    }

    /**
     * A failure: when the connection was already closed (close(), receive timeout), that reason, as the failure is
     * its consequence (a read on a closed socket, the server's answer to our goodbye); else what the failure says.
     * Closes the connection.
     */
    private ReplicationException fail(IOException ex, String doing) {
        ReplicationException failure;
        ReplicationException cause = closeCause.get();
        if (cause != null && cause != ex) {
            failure = new ReplicationException(cause.reason(), cause.getMessage() + " (while " + doing + ")", ex);
        } else if (ex instanceof ReplicationException replication) {
            failure = replication;
        } else if (ex instanceof EOFException) {
            failure = new ReplicationException(Reason.SERVER_ENDED, endpoint.title()
                + ": the server closed the connection without an error message while " + doing + " (" + ex.getMessage() + ")", ex);
        } else {
            failure = new ReplicationException(Reason.NETWORK, endpoint.title()
                + ": " + ex + " while " + doing, ex);
        }
        abort(failure);
        return failure;
    }

    private void abort(ReplicationException cause) {
        abort(cause, false);
    }

    private void abort(ReplicationException cause, boolean goodbye) {
        if (!closeCause.compareAndSet(null, cause)) {
            return;
        }
        State previous = state;
        state = State.CLOSED;
        StatusTimer running = timer;
        if (running != null) {
            running.stop();
        }
        if (goodbye) {
            try {
                writer.tryWrite(previous == State.STREAMING ? GOODBYE_STREAMING : GOODBYE, GOODBYE_LOCK_TIMEOUT_MS);
            } catch (IOException ex) {
                LOG.debug("replication connection to {}: goodbye not sent: {}", endpoint.describe(), ex.toString());
            }
        }
        WireSession.closeQuietly(tcp);
    }


    /** The timer's hooks: periodic status on the output lock, and closing on a receive timeout. */
    private final class TimerActions implements StatusTimer.Actions {
        @Override
        public void sendPeriodicStatus(boolean replyRequested) throws IOException {
            if (state == State.STREAMING) {
                status.resend(replyRequested);
            }
        }

        @Override
        public void receiveTimedOut(long silentMs) {
            abort(new ReplicationException(Reason.TIMEOUT, endpoint.title()
                + ": no message from the server for " + silentMs + " ms (receiveTimeout "
                + endpoint.receiveTimeout().toMillis() + " ms); closed"));
        }

        @Override
        public void timerFailed(IOException failure) {
            fail(failure, "sending the periodic status update");
        }
    }
}
