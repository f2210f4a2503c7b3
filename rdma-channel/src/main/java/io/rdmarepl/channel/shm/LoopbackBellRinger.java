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
        try {
            if (channel == null) {
                channel = DatagramChannel.open(StandardProtocolFamily.INET);
                channel.configureBlocking(false);
            }
            if (target == null || target.getPort() != port) {
                target = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
            }
            channel.send(ring.clear(), target);
        } catch (IOException e) {
            if (!failureLogged) {
                failureLogged = true;
                LOG.warn("cannot ring the doorbell of {} (UDP port {} on the loopback): {}; the far end notices "
                        + "news within its bounded sleep instead", uri, port, e.toString());
            }
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
