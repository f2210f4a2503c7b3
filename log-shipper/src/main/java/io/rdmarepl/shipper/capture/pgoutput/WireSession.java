package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.config.postgres.ServerAddress;
import io.rdmarepl.config.postgres.UnixSocket;
import io.rdmarepl.shipper.capture.pgoutput.ReplicationException.Reason;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * A session of the wire client once the server is ready for commands: the socket (TCP, or the server's Unix-domain
 * socket when the host is a directory: {@link ServerAddress}), the streams over it (TLS or not) framed both ways, and what the server reported at startup. A walsender session or a plain one, as the
 * endpoint says.
 *
 * @param tcp     the TCP socket itself: closing it ends the session; its input tells whether bytes wait under TLS
 * @param io      the socket the protocol runs over: {@code tcp} itself, or the TLS socket layered on it
 * @param startup the backend's pid and the parameters it reported
 */
record WireSession(Socket tcp, Socket io, BackendReader reader, FrontendWriter writer, StartupHandshake.Session startup) {

    /**
     * Connects, negotiates TLS per the sslmode, authenticates and waits until the backend is ready. The endpoint's
     * connect timeout bounds the TCP connect and each wait for the server during TLS and authentication (a socket
     * read timeout, cleared once the session is ready).
     *
     * @throws ReplicationException naming host:port, user and database, and the server's own error when it sent one
     */
    static WireSession open(ReplicationEndpoint endpoint) throws ReplicationException {
        long timeoutMs = Math.max(1, endpoint.connectTimeout().toMillis());
        ServerAddress address = new ServerAddress(endpoint.host(), endpoint.port());
        Socket tcp;
        try {
            tcp = address.unixSocket() ? new UnixSocket(address.socketFile()) : new Socket();
        } catch (IOException ex) {
            throw new ReplicationException(Reason.NETWORK, endpoint.title() + ": cannot open a socket: " + ex, ex);
        }
        try {
            tcp.setTcpNoDelay(true);
            tcp.setKeepAlive(true);
            if (tcp instanceof UnixSocket unix) {
                unix.connect();
            } else {
                if (endpoint.receiveBufferBytes() > 0) {
                    tcp.setReceiveBufferSize(endpoint.receiveBufferBytes()); // before connecting: it sets the window scale
                }
                tcp.connect(new InetSocketAddress(endpoint.host(), endpoint.port()), (int) Math.min(Integer.MAX_VALUE, timeoutMs));
            }
            tcp.setSoTimeout((int) Math.min(Integer.MAX_VALUE, timeoutMs));
            // PostgreSQL offers no TLS over its Unix-domain socket, and libpq asks for none there
            Socket io = address.unixSocket() ? tcp : TlsNegotiation.negotiate(tcp, endpoint);
            BackendReader reader = new BackendReader(io.getInputStream());
            FrontendWriter writer = new FrontendWriter(io.getOutputStream());
            StartupHandshake.Session session = StartupHandshake.run(endpoint, reader, writer);
            tcp.setSoTimeout(0);
            return new WireSession(tcp, io, reader, writer, session);
        } catch (ReplicationException ex) {
            closeQuietly(tcp);
            throw ex;
        } catch (SocketTimeoutException ex) {
            closeQuietly(tcp);
            throw new ReplicationException(Reason.TIMEOUT, endpoint.title() + ": no answer within " + timeoutMs
                + " ms (connectTimeout) while connecting, negotiating TLS or authenticating", ex);
        } catch (EOFException ex) {
            closeQuietly(tcp);
            throw new ReplicationException(Reason.NETWORK, endpoint.title()
                + ": the server closed the connection during startup without an error message", ex);
        } catch (IOException | RuntimeException ex) {
            closeQuietly(tcp);
            throw new ReplicationException(Reason.NETWORK, endpoint.title() + ": cannot connect: " + ex, ex);
        }
    }

    static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing on the way out of a failure: the failure is what is reported
        }
    }
}
