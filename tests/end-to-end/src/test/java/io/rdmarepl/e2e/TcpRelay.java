package io.rdmarepl.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP relay to one port, which a test can {@link #cut()}: from then on it behaves as a link that drops
 * every packet, in both directions. New connections still complete (the kernel accepts them) but nothing is ever
 * answered, and bytes on open connections are read and dropped, so each side sees silence and its own timeouts, not a
 * refused connection or a reset. One member cut off from another, without network namespaces.
 */
final class TcpRelay implements AutoCloseable {
    private final int targetPort;
    private final ServerSocket listener;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean cut;

    TcpRelay(int targetPort) {
        this.targetPort = targetPort;
        try {
            this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread acceptor = new Thread(this::accept, "e2e-relay-" + targetPort);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The port to give clients instead of the target's. */
    int port() {
        return listener.getLocalPort();
    }

    /** From now on nothing passes, either way. */
    void cut() {
        cut = true;
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                sockets.add(client);
                if (cut) {
                    pump(client, null); // read and dropped
                    continue;
                }
                Socket target = new Socket();
                target.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 2000);
                sockets.add(target);
                pump(client, target);
                pump(target, client);
            } catch (IOException e) {
                // the listener closed, or the target refused: the client sees its connection end
            }
        }
    }

    /**
     * Copies what {@code from} receives to {@code to} while not cut, and passes its end on; drops it once cut (and
     * always when {@code to} is null).
     */
    private void pump(Socket from, Socket to) {
        Thread pump = new Thread(() -> {
            byte[] buffer = new byte[16384];
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to == null ? null : to.getOutputStream();
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    if (!cut && out != null) {
                        out.write(buffer, 0, n);
                        out.flush();
                    }
                }
                if (!cut && to != null) {
                    to.shutdownOutput();
                }
            } catch (IOException e) {
                if (!cut) {
                    closeQuietly(from);
                    closeQuietly(to);
                }
            }
        }, "e2e-relay-pump-" + targetPort);
        pump.setDaemon(true);
        pump.start();
    }

    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException e) {
            // closing anyway
        }
        sockets.forEach(TcpRelay::closeQuietly);
    }

    private static void closeQuietly(Socket socket) {
        if (socket == null) {
            return;
        }
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
