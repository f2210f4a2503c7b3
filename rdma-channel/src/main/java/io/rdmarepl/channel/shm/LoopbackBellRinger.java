package io.rdmarepl.channel.shm;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ringing side of a {@link LoopbackDoorbell}: one byte to the port the far end announced. Never
 * blocks and never throws: a ring that cannot be sent is logged once, and the sleeper's bounded sleep
 * notices the news anyway.
 */
final class LoopbackBellRinger implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LoopbackBellRinger.class);

    private final String uri;
    private final ByteBuffer ring = ByteBuffer.allocateDirect(1);
    private DatagramChannel channel;
    private InetSocketAddress target;
    private boolean failureLogged;

    LoopbackBellRinger(String uri) {
        this.uri = uri;
    }

    void ring(int port) {
        if (port < 1 || port > 65_535) {
            fail(port, "not a UDP port");
            return;
        }
        try {
            if (channel == null) {
                channel = DatagramChannel.open(StandardProtocolFamily.INET);
                channel.configureBlocking(false);
            }
            if (target == null || target.getPort() != port) {
                target = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
            }
            channel.send(ring.clear(), target);
        } catch (IOException | RuntimeException e) {
            fail(port, e.toString());
        }
    }

    /** The port comes from the other process's memory: a bad one is logged once, never thrown on the publish path. */
    private void fail(int port, String why) {
        if (!failureLogged) {
            failureLogged = true;
            LOG.warn("cannot ring the doorbell of {} (UDP port {} on the loopback): {}; the far end notices "
                    + "news within its bounded sleep instead", uri, port, why);
        }
    }

    @Override
    public void close() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // a local socket: nothing to recover
            }
        }
    }
}
