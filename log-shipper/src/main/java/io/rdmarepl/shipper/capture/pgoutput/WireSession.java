package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.config.postgres.ServerAddress;
import io.rdmarepl.config.postgres.UnixSocket;
import io.rdmarepl.shipper.capture.pgoutput.ReplicationException.Reason;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
    private static final Logger LOG = LoggerFactory.getLogger(WireSession.class);
    /** The kernel's cap on the receive buffer is the same for every connection of the process: said once. */
    private static volatile boolean receiveBufferCapSaid;

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
                    askForReceiveBuffer(tcp, endpoint);
                }
                tcp.connect(new InetSocketAddress(endpoint.host(), endpoint.port()), (int) Math.min(Integer.MAX_VALUE, timeoutMs));
            }
            tcp.setSoTimeout((int) Math.min(Integer.MAX_VALUE, timeoutMs));
            // PostgreSQL offers no TLS over its Unix-domain socket, and libpq asks for none there
            Socket io = address.unixSocket() ? tcp : TlsNegotiation.negotiate(tcp, endpoint);
            BackendReader reader = io == tcp ? new BackendReader(io.getInputStream())
                : new BackendReader(io.getInputStream(), tcp.getInputStream());
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

    /**
     * Before connecting, so that the first window offered is already the small one. The kernel caps the size at
     * {@code net.core.rmem_max}: a cap is said once, at WARN.
     */
    private static void askForReceiveBuffer(Socket tcp, ReplicationEndpoint endpoint) throws IOException {
        int asked = endpoint.receiveBufferBytes();
        tcp.setReceiveBufferSize(asked);
        int granted = tcp.getReceiveBufferSize();
        // Linux reports twice what it grants (its bookkeeping); other kernels report what they grant
        if (granted != asked && granted != 2 * asked && !receiveBufferCapSaid) {
            receiveBufferCapSaid = true;
            LOG.warn("{}: the kernel reports a receive buffer of {} bytes for capture.receive.buffer.bytes={} (net.core.rmem_max"
                + " caps it): raise that sysctl, or set 0 for the kernel's autotuning", endpoint.title(), granted, asked);
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
