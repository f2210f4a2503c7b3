package io.rdmarepl.config.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Against a real Unix-domain server socket in a temporary directory: what a PostgreSQL client needs of a socket. */
@Timeout(20) // a write that waited for the blocked reader would hang
class UnixSocketTest {
    private static final InetSocketAddress ANY = new InetSocketAddress("localhost", 5432);

    @TempDir
    Path directory;
    private ServerSocketChannel server;
    private UnixSocket socket;
    private SocketChannel peer;

    @BeforeEach
    void listenAndConnect() throws IOException {
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(UnixSocket.file(directory.toString(), 5432)));
        socket = new UnixSocket(UnixSocket.file(directory.toString(), 5432));
        socket.connect(ANY, 1000);
        peer = server.accept();
    }

    @AfterEach
    void close() throws IOException {
        socket.close();
        peer.close();
        server.close();
    }

    @Test
    void shouldCarryBytesBothWays() throws IOException {
        socket.getOutputStream().write("ping".getBytes());
        ByteBuffer received = ByteBuffer.allocate(4);
        while (received.hasRemaining()) {
            peer.read(received);
        }
        assertThat(new String(received.array())).isEqualTo("ping");

        peer.write(ByteBuffer.wrap("pong".getBytes()));
        assertThat(new String(socket.getInputStream().readNBytes(4))).isEqualTo("pong");
    }

    @Test
    void shouldTellWhatWaitsWithoutLosingItAndWithoutWaiting() throws IOException {
        InputStream in = socket.getInputStream();
        assertThat(in.available()).as("nothing sent yet").isZero();
        peer.write(ByteBuffer.wrap("abc".getBytes()));
        awaitAvailable(in, 3);
        peer.write(ByteBuffer.wrap("def".getBytes()));
        awaitAvailable(in, 6);
        assertThat(new String(in.readNBytes(6))).isEqualTo("abcdef");
        assertThat(in.available()).isZero();
    }

    @Test
    void shouldTimeOutAReadAsATcpSocketDoes() throws IOException {
        socket.setSoTimeout(50);
        long startNs = System.nanoTime();
        assertThatThrownBy(() -> socket.getInputStream().read(new byte[8]))
            .isInstanceOf(SocketTimeoutException.class)
            .hasMessageContaining("within 50 ms");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs)).isGreaterThanOrEqualTo(49);
    }

    /** A status update from another thread while the reader waits: neither blocks the other. */
    @Test
    void shouldWriteFromAnotherThreadWhileAReaderWaits() throws Exception {
        CompletableFuture<Integer> read = CompletableFuture.supplyAsync(() -> {
            try {
                return socket.getInputStream().read();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        OutputStream out = socket.getOutputStream();
        out.write('r');
        ByteBuffer received = ByteBuffer.allocate(1);
        while (received.hasRemaining()) {
            peer.read(received);
        }
        assertThat(received.get(0)).isEqualTo((byte) 'r');
        assertThat(read).as("the reader still waits").isNotDone();
        peer.write(ByteBuffer.wrap(new byte[] {'k'}));
        assertThat(read.get(5, TimeUnit.SECONDS)).isEqualTo('k');
    }

    @Test
    void shouldEndAWaitingReadWhenClosed() throws Exception {
        CompletableFuture<Integer> read = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try {
                read.complete(socket.getInputStream().read());
            } catch (IOException e) {
                read.complete(-2);
            }
        }, "test-waiting-reader");
        reader.start();
        awaitWaitingOnItsSelector(reader);
        socket.close();
        assertThat(read.get(5, TimeUnit.SECONDS)).as("an exception or the end of the stream").isIn(-1, -2);
        assertThatThrownBy(() -> socket.getInputStream()).isInstanceOf(SocketException.class).hasMessageContaining("closed");
    }

    @Test
    void shouldReportTheEndOfTheStream() throws IOException {
        peer.close();
        assertThat(socket.getInputStream().read()).isEqualTo(-1);
    }

    @Test
    void shouldNameTheMissingSocketFileAndTheSettingToCheck() throws IOException {
        UnixSocket nowhere = new UnixSocket(UnixSocket.file(directory.toString(), 6000));
        assertThatThrownBy(() -> nowhere.connect(ANY, 1000))
            .isInstanceOf(ConnectException.class)
            .hasMessageContaining(directory.resolve(".s.PGSQL.6000").toString())
            .hasMessageContaining("unix_socket_directories");
    }

    @Test
    void shouldMakeSocketsToTheFileItWasGivenWhateverHostIsAsked() throws IOException {
        UnixSocketFactory factory = new UnixSocketFactory(UnixSocket.file(directory.toString(), 5432).toString());
        try (java.net.Socket made = factory.createSocket("some-host", 1234); SocketChannel accepted = server.accept()) {
            made.getOutputStream().write('x');
            ByteBuffer received = ByteBuffer.allocate(1);
            while (received.hasRemaining()) {
                accepted.read(received);
            }
            assertThat(received.get(0)).isEqualTo((byte) 'x');
        }
    }

    private static void awaitWaitingOnItsSelector(Thread reader) {
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (java.util.Arrays.stream(reader.getStackTrace()).noneMatch(frame -> frame.getMethodName().contains("select"))) {
            assertThat(System.nanoTime() - deadlineNs).as("the reader waits on its selector within 5 s").isNegative();
            Thread.onSpinWait();
        }
    }

    private static void awaitAvailable(InputStream in, int bytes) throws IOException {
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (in.available() < bytes) {
            assertThat(System.nanoTime() - deadlineNs).as("%d bytes available within 5 s", bytes).isNegative();
            Thread.onSpinWait();
        }
        assertThat(in.available()).isEqualTo(bytes);
    }
}
