package io.rdmarepl.shipper.capture.pgoutput;

import java.io.IOException;
import java.util.Optional;

/**
 * Why the replication connection failed or ended. The message names the endpoint ({@code host:port}, user,
 * database), what happened, and PostgreSQL's own error when it sent one.
 */
public final class ReplicationException extends IOException {
    private static final long serialVersionUID = 1L;

    /** What kind of failure: the caller decides from it whether to reconnect. */
    public enum Reason {
        /** TCP connect failed or timed out, or the connection was lost without a word from the server. */
        NETWORK,
        /** TLS negotiation or certificate verification failed, or the server refused TLS the sslmode requires. */
        TLS,
        /** Authentication failed: wrong password, no pg_hba.conf rule, unsupported method, SQLSTATE class 28. */
        AUTHENTICATION,
        /** The server sent an ErrorResponse (unknown database, slot in use, bad command, terminated backend...). */
        SERVER_ERROR,
        /** The server ended the stream without an error: CopyDone, or end of stream. */
        SERVER_ENDED,
        /** The server sent what the protocol does not allow here. */
        PROTOCOL,
        /** Nothing came from the server within the receive timeout. */
        TIMEOUT,
        /** {@link ReplicationConnection#close()} was called. */
        CLOSED
    }

    private final Reason reason;
    private final transient ServerError serverError;

    ReplicationException(Reason reason, String message, ServerError serverError, Throwable cause) {
        super(message, cause);
        this.reason = reason;
        this.serverError = serverError;
    }

    ReplicationException(Reason reason, String message) {
        this(reason, message, null, null);
    }

    ReplicationException(Reason reason, String message, Throwable cause) {
        this(reason, message, null, cause);
    }

    /** An ErrorResponse; {@link Reason#AUTHENTICATION} for SQLSTATE class 28 and during authentication. */
    static ReplicationException fromServer(ReplicationEndpoint endpoint, String doing, ServerError error, boolean authenticating) {
        Reason reason = authenticating || error.isAuthorizationFailure() ? Reason.AUTHENTICATION : Reason.SERVER_ERROR;
        return new ReplicationException(reason, endpoint.title() + ": " + doing
            + " failed: the server said: " + error.describe(), error, null);
    }

    public Reason reason() {
        return reason;
    }

    /** @return the server's ErrorResponse, when there was one */
    public Optional<ServerError> serverError() {
        return Optional.ofNullable(serverError);
    }
}
