package io.rdmarepl.channel.softverbs;

import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.RdmaCmEvent.EventType;
import com.ibm.disni.verbs.RdmaCmId;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.util.concurrent.TimeUnit;
import java.nio.channels.SocketChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An rdma_cm id: a listening id owns a server socket, a connected id owns one {@link SoftConnection}.
 * Children of a listening id post their events on the listener's channel, as rdma_cm does.
 */
final class SoftCmId extends RdmaCmId {
    private static final Logger LOG = LoggerFactory.getLogger(SoftCmId.class);
    final SoftEventChannel channel;
    private final SoftCmId listener;
    private volatile ServerSocketChannel server;
    private volatile Thread acceptor;
    private volatile InetSocketAddress bound;
    volatile InetSocketAddress destination;
    volatile SoftConnection connection;
    private volatile boolean destroyed;

    SoftCmId(SoftEventChannel channel, IbvContext context, SoftCmId listener) throws IOException {
        super(channel, context);
        this.channel = channel;
        this.listener = listener;
    }

    void qp(SoftQp qp) {
        setQp(qp);
    }

    SoftQp softQp() {
        return (SoftQp) getQp();
    }

    // ---- passive side ----

    void bind(SocketAddress address) throws IOException {
        if (!(address instanceof InetSocketAddress inet)) {
            throw new IOException("rdma_bind_addr: EINVAL: softrdma binds IP socket addresses only: " + address);
        }
        ServerSocketChannel socket = ServerSocketChannel.open();
        try {
            socket.setOption(java.net.StandardSocketOptions.SO_REUSEADDR, true);
            socket.bind(inet);
        } catch (IOException e) {
            socket.close();
            throw new IOException("rdma_bind_addr: " + inet + ": " + e.getMessage(), e);
        }
        server = socket;
        bound = (InetSocketAddress) socket.getLocalAddress();
    }

    void listen() throws IOException {
        ServerSocketChannel socket = server;
        if (socket == null) {
            throw new IOException("rdma_listen: EINVAL: the id is not bound");
        }
        Thread accepting = new Thread(() -> acceptLoop(socket), "softrdma-listen " + bound);
        accepting.setDaemon(true);
        acceptor = accepting;
        accepting.start();
        LOG.info("softrdma (software RDMA emulation over TCP: no kernel bypass, no zero-copy) listening on {}", bound);
    }

    private void acceptLoop(ServerSocketChannel socket) {
        while (!destroyed) {
            try {
                SocketChannel accepted = socket.accept();
                SoftCmId child = new SoftCmId(channel, getVerbs(), this);
                SoftConnection connection = new SoftConnection(accepted, child);
                child.connection = connection;
                connection.start();
            } catch (IOException e) {
                if (!destroyed) {
                    LOG.warn("softrdma: accepting on {} failed: {}", bound, e.toString());
                }
                return;
            }
        }
    }

    /** Receive thread of a child: the peer asked to connect. */
    void onConnectRequest(SoftConnection from) {
        channel.post(EventType.RDMA_CM_EVENT_CONNECT_REQUEST.ordinal(), listener, this, 0);
    }

    void accept() throws IOException {
        SoftConnection conn = connection;
        SoftQp qp = softQp();
        if (conn == null || listener == null) {
            throw new IOException("rdma_accept: EINVAL: no connection request on this id");
        }
        if (qp == null) {
            throw new IOException("rdma_accept: EINVAL: create the queue pair before accepting");
        }
        conn.established(qp);
        conn.sendControl(SoftWireDescriptor.ACCEPT_TYPE, 0);
        channel.post(EventType.RDMA_CM_EVENT_ESTABLISHED.ordinal(), listener, this, 0);
    }

    // ---- active side ----

    void resolve(SocketAddress address) {
        if (address instanceof InetSocketAddress inet) {
            InetSocketAddress resolved = inet.isUnresolved() ? new InetSocketAddress(inet.getHostString(), inet.getPort()) : inet;
            if (!resolved.isUnresolved()) {
                destination = resolved;
                channel.post(EventType.RDMA_CM_EVENT_ADDR_RESOLVED.ordinal(), null, this, 0);
                return;
            }
        }
        channel.post(EventType.RDMA_CM_EVENT_ADDR_ERROR.ordinal(), null, this, -113);
    }

    void connect(int timeoutMs) throws IOException {
        SoftQp qp = softQp();
        if (destination == null) {
            throw new IOException("rdma_connect: EINVAL: resolve the address first");
        }
        if (qp == null) {
            throw new IOException("rdma_connect: EINVAL: create the queue pair before connecting");
        }
        SocketChannel socket = SocketChannel.open();
        try {
            socket.socket().connect(destination, timeoutMs);
        } catch (java.net.ConnectException e) {
            socket.close();
            channel.post(EventType.RDMA_CM_EVENT_REJECTED.ordinal(), null, this, -111);
            return;
        } catch (IOException e) {
            socket.close();
            channel.post(EventType.RDMA_CM_EVENT_UNREACHABLE.ordinal(), null, this, -110);
            return;
        }
        SoftConnection conn = new SoftConnection(socket, this);
        connection = conn;
        conn.qp = qp;
        conn.start();
        conn.sendControl(SoftWireDescriptor.CONNECT_TYPE, qp.qpNumber);
    }

    /** Receive thread of an active id: the peer accepted. */
    void onAccepted(SoftConnection conn) {
        conn.established(softQp());
        channel.post(EventType.RDMA_CM_EVENT_ESTABLISHED.ordinal(), null, this, 0);
    }

    // ---- both ----

    void onConnectionLost(SoftConnection conn, String reason) {
        if (destroyed) {
            return;
        }
        if (conn.isEstablished()) {
            LOG.info("softrdma {}: disconnected: {}", conn.description(), reason);
            channel.post(EventType.RDMA_CM_EVENT_DISCONNECTED.ordinal(), listener, this, 0);
        } else if (listener == null) {
            channel.post(EventType.RDMA_CM_EVENT_REJECTED.ordinal(), null, this, -104);
        }
    }

    void hangUp() {
        SoftConnection conn = connection;
        if (conn != null) {
            conn.disconnect();
        }
    }

    void destroy() {
        destroyed = true;
        ServerSocketChannel socket = server;
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                LOG.debug("softrdma: closing listener {}: {}", bound, e.toString());
            }
            awaitAcceptorGone();
        }
        SoftConnection conn = connection;
        if (conn != null) {
            conn.disconnect();
        }
    }

    /**
     * NIO closes a listener blocked in {@code accept} only once that thread has left it: until then the port still
     * listens, and a standby restarted on it at once would fail to bind (EADDRINUSE). Destroying an id releases its
     * port before it returns, as {@code rdma_destroy_id} does.
     */
    private void awaitAcceptorGone() {
        Thread accepting = acceptor;
        if (accepting == null || accepting == Thread.currentThread()) {
            return;
        }
        try {
            accepting.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    SocketAddress source() throws IOException {
        SoftConnection conn = connection;
        return conn != null ? conn.localAddress() : bound;
    }

    SocketAddress destinationAddress() throws IOException {
        SoftConnection conn = connection;
        return conn != null ? conn.remoteAddress() : destination;
    }
}
