package io.rdmarepl.config.postgres;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * A {@link Socket} to a PostgreSQL server's Unix-domain socket ({@code DIR/.s.PGSQL.PORT}), for the clients that take a
 * {@code Socket}: pgjdbc (through {@link UnixSocketFactory}) and the shipper's replication client. On the primary's own
 * host it skips the TCP stack: on loopback TCP a sender also runs its receiver's half of the stack, so a walsender
 * read by a fast client paid for every small message twice.
 *
 * <p>The channel stays non-blocking; a read or write that cannot proceed waits on a selector of its own (one for
 * reads, one for writes), so one thread may block reading while another writes, and {@link #setSoTimeout} bounds a
 * read as on a TCP socket. {@link #connect} ignores the address it is given (pgjdbc passes its host and port): the
 * path was fixed at construction. Methods about TCP (no delay, keep-alive, buffer sizes, linger) accept their
 * settings and do nothing.
 */
public final class UnixSocket extends Socket {
    private final Path path;
    private SocketChannel channel;
    private Selector readable;
    private Selector writable;
    private volatile int soTimeoutMs;
    private volatile boolean closed;
    private final Input input = new Input();
    private final Output output = new Output();

    /** @param path the socket file, e.g. {@code /var/run/postgresql/.s.PGSQL.5432} */
    public UnixSocket(Path path) throws SocketException {
        super((java.net.SocketImpl) null);
        this.path = path;
    }

    /** The server's socket file in {@code directory} for {@code port}, as libpq names it. */
    public static Path file(String directory, int port) {
        return Path.of(directory, ".s.PGSQL." + port);
    }

    @Override
    public void connect(SocketAddress ignored) throws IOException {
        connect();
    }

    /** As {@link #connect()}: pgjdbc passes its URL's host and port, which the socket file replaces. */
    @Override
    public void connect(SocketAddress ignored, int timeout) throws IOException {
        connect();
    }

    /** Connects to the path given at construction; a local connect does not wait, so it takes no timeout. */
    public synchronized void connect() throws IOException {
        if (closed) {
            throw new SocketException("socket closed");
        }
        if (channel != null) {
            throw new SocketException("already connected to " + path);
        }
        SocketChannel opened = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            opened.connect(UnixDomainSocketAddress.of(path));
            opened.configureBlocking(false);
            readable = Selector.open();
            writable = Selector.open();
            opened.register(readable, SelectionKey.OP_READ);
            opened.register(writable, SelectionKey.OP_WRITE);
        } catch (IOException e) {
            opened.close();
            closeSelectors();
            String why = Files.exists(path) ? e.getMessage() : "no such socket file (is the server running, with "
                    + "unix_socket_directories naming " + path.getParent() + "?)";
            ConnectException refused = new ConnectException("cannot connect to " + path + ": " + why);
            refused.initCause(e);
            throw refused;
        }
        channel = opened;
    }

    @Override
    public InputStream getInputStream() throws IOException {
        requireConnected();
        return input;
    }

    @Override
    public OutputStream getOutputStream() throws IOException {
        requireConnected();
        return output;
    }

    @Override
    public void setSoTimeout(int timeout) throws SocketException {
        if (timeout < 0) {
            throw new IllegalArgumentException("timeout < 0");
        }
        soTimeoutMs = timeout;
    }

    @Override
    public int getSoTimeout() {
        return soTimeoutMs;
    }

    @Override
    public void close() throws IOException {
        closed = true;
        SocketChannel open = channel;
        if (open != null) {
            open.close();
        }
        closeSelectors(); // wakes a reader or writer waiting on them: its next attempt meets the closed channel
    }

    private void closeSelectors() throws IOException {
        if (readable != null) {
            readable.close();
        }
        if (writable != null) {
            writable.close();
        }
    }

    @Override
    public boolean isConnected() {
        return channel != null;
    }

    @Override
    public boolean isBound() {
        return channel != null;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void shutdownInput() throws IOException {
        requireConnected().shutdownInput();
    }

    @Override
    public void shutdownOutput() throws IOException {
        requireConnected().shutdownOutput();
    }

    @Override
    public void setTcpNoDelay(boolean on) {
    }

    @Override
    public boolean getTcpNoDelay() {
        return true;
    }

    @Override
    public void setKeepAlive(boolean on) {
    }

    @Override
    public boolean getKeepAlive() {
        return false;
    }

    @Override
    public void setSoLinger(boolean on, int linger) {
    }

    @Override
    public void setReceiveBufferSize(int size) {
    }

    @Override
    public void setSendBufferSize(int size) {
    }

    @Override
    public InetAddress getInetAddress() {
        return InetAddress.getLoopbackAddress();
    }

    @Override
    public InetAddress getLocalAddress() {
        return InetAddress.getLoopbackAddress();
    }

    @Override
    public int getPort() {
        return 0;
    }

    @Override
    public int getLocalPort() {
        return -1;
    }

    @Override
    public SocketAddress getRemoteSocketAddress() {
        return UnixDomainSocketAddress.of(path);
    }

    @Override
    public SocketAddress getLocalSocketAddress() {
        return null;
    }

    @Override
    public String toString() {
        return "UnixSocket[" + path + (closed ? ", closed" : channel == null ? ", unconnected" : "") + "]";
    }

    private SocketChannel requireConnected() throws SocketException {
        if (closed) {
            throw new SocketException("socket closed");
        }
        if (channel == null) {
            throw new SocketException("not connected");
        }
        return channel;
    }

    /** Waits until {@code selector}'s one channel is ready, or the timeout (0: none) passes; the caller tries again. */
    private void await(Selector selector, int timeoutMs, Consumer<SelectionKey> ignore) throws IOException {
        if (closed) {
            throw new SocketException("socket closed");
        }
        try {
            selector.select(ignore, timeoutMs);
        } catch (java.nio.channels.ClosedSelectorException e) {
            throw new SocketException("socket closed");
        }
    }

    /**
     * Reads from the channel, waiting while nothing is there. {@link #available()} reads ahead into {@code ahead}
     * (the channel cannot say what waits without reading it), and reads serve that first.
     */
    private final class Input extends InputStream {
        private final ByteBuffer ahead = ByteBuffer.allocateDirect(128 * 1024).flip();
        private final Consumer<SelectionKey> ignore = key -> { };
        private byte[] wrapped;
        private ByteBuffer view;
        private final byte[] one = new byte[1];

        @Override
        public int read() throws IOException {
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (ahead.hasRemaining()) {
                int n = Math.min(len, ahead.remaining());
                ahead.get(b, off, n);
                return n;
            }
            if (b != wrapped) { // the caller's buffer, wrapped once: no allocation per read
                wrapped = b;
                view = ByteBuffer.wrap(b);
            }
            view.limit(off + len).position(off);
            SocketChannel open = requireConnected();
            long deadlineNs = soTimeoutMs == 0 ? 0 : System.nanoTime() + soTimeoutMs * 1_000_000L;
            while (true) {
                int n = open.read(view);
                if (n != 0) {
                    return n;
                }
                int waitMs = 0;
                if (deadlineNs != 0) {
                    long leftNs = deadlineNs - System.nanoTime();
                    if (leftNs <= 0) {
                        throw new SocketTimeoutException("no data from " + path + " within " + soTimeoutMs + " ms");
                    }
                    waitMs = (int) Math.max(1, leftNs / 1_000_000L);
                }
                await(readable, waitMs, ignore);
            }
        }

        /** What waits in the socket now, up to {@code ahead}'s size: reads it ahead (never waiting), after what it read before. */
        @Override
        public int available() throws IOException {
            if (ahead.remaining() == ahead.capacity()) {
                return ahead.remaining();
            }
            ahead.compact();
            try {
                requireConnected().read(ahead); // -1 at the end of the stream: nothing more ahead, and the next read says so
            } finally {
                ahead.flip();
            }
            return ahead.remaining();
        }

        @Override
        public void close() throws IOException {
            UnixSocket.this.close();
        }
    }

    /** Writes everything it is given, waiting while the socket's buffer is full. */
    private final class Output extends OutputStream {
        private final Consumer<SelectionKey> ignore = key -> { };
        private byte[] wrapped;
        private ByteBuffer view;
        private final byte[] one = new byte[1];

        @Override
        public synchronized void write(int b) throws IOException {
            one[0] = (byte) b;
            write(one, 0, 1);
        }

        /** Synchronized: a status update from another thread must not interleave with a message being written. */
        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            if (b != wrapped) {
                wrapped = b;
                view = ByteBuffer.wrap(b);
            }
            view.limit(off + len).position(off);
            SocketChannel open = requireConnected();
            while (view.hasRemaining()) {
                if (open.write(view) == 0) {
                    await(writable, 0, ignore);
                }
            }
        }

        @Override
        public void close() throws IOException {
            UnixSocket.this.close();
        }
    }
}
