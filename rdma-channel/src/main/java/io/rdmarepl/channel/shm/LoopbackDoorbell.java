package io.rdmarepl.channel.shm;

import io.rdmarepl.channel.ring.Doorbell;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The doorbell of a shared-memory ring: a UDP socket on the loopback that the reader blocks on, and that
 * the far end sends one byte to ({@link LoopbackBellRinger}). Java has no futex on shared memory; a datagram
 * wakes a blocked reader as fast as the kernel schedules it, needs no connection to manage when either
 * side restarts, and a datagram from anyone else only ends one sleep early.
 *
 * <p>One thread awaits; {@link #wakeUp} from any. Allocation-free in {@link #await} except for the
 * sender address the JDK creates per datagram received.
 */
final class LoopbackDoorbell implements Doorbell {
    private static final Logger LOG = LoggerFactory.getLogger(LoopbackDoorbell.class);

    private final DatagramChannel channel;
    private final Selector selector;
    private final ByteBuffer drain = ByteBuffer.allocateDirect(64);
    private final Consumer<SelectionKey> ignoreKey = key -> { };

    private LoopbackDoorbell(DatagramChannel channel, Selector selector) {
        this.channel = channel;
        this.selector = selector;
    }

    /** A doorbell, or null after one warning naming the ring and {@code fallback} when no UDP port can be bound. */
    static LoopbackDoorbell openOrWarn(String uri, String fallback) {
        try {
            return open();
        } catch (IOException | RuntimeException e) {
            LOG.warn("ring {} has no doorbell (cannot bind a UDP port on the loopback: {}); {}", uri, e.toString(), fallback);
            return null;
        }
    }

    /** Binds an ephemeral port on the loopback. */
    static LoopbackDoorbell open() throws IOException {
        DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
        try {
            channel.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            channel.configureBlocking(false);
            Selector selector = Selector.open();
            try {
                channel.register(selector, SelectionKey.OP_READ);
            } catch (IOException | RuntimeException e) {
                selector.close();
                throw e;
            }
            return new LoopbackDoorbell(channel, selector);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** The UDP port the far end rings. */
    int port() {
        try {
            return ((InetSocketAddress) channel.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new UncheckedIOException("doorbell socket closed", e);
        }
    }

    @Override
    public boolean await(long timeoutNs) {
        try {
            if (swallowRings()) {
                return true;
            }
            // select(0) would block for ever; the timeout is whole milliseconds, at least one
            selector.select(ignoreKey, Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNs)));
            return swallowRings();
        } catch (IOException e) {
            throw new UncheckedIOException("doorbell of a shared-memory ring failed: " + e, e);
        }
    }

    @Override
    public void wakeUp() {
        selector.wakeup();
    }

    /** @return true when at least one ring was pending */
    private boolean swallowRings() throws IOException {
        boolean rung = false;
        while (channel.receive(drain.clear()) != null) {
            rung = true;
        }
        return rung;
    }

    @Override
    public void close() {
        try (channel; selector) {
            // both closed
        } catch (IOException ignored) {
            // closing a local socket: nothing to recover
        }
    }
}
