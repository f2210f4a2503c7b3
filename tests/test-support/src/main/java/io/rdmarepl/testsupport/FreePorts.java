package io.rdmarepl.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for test servers: free now and below the kernel's ephemeral range. A port the kernel hands out for port 0
 * may be taken again as the local port of an outgoing connection before the postmaster binds it ("could not bind
 * ... Address already in use"); ports below the range are never given to outgoing connections.
 */
final class FreePorts {
    /** Linux's default lower bound of {@code net.ipv4.ip_local_port_range}; IANA's dynamic range starts higher. */
    static final int EPHEMERAL_LOWEST_DEFAULT = 32768;
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int SEARCH_LOW = 1024;
    private static final int SEARCH_SPAN = 10_000;
    private static final int SEARCH_ATTEMPTS = 50;
    /** Never hand out a port twice in one JVM: a server may not have bound it yet. */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private FreePorts() {
    }

    /**
     * @return a port on {@code host} that no other caller in this JVM got, below the ephemeral range if one of
     * {@value #SEARCH_ATTEMPTS} random candidates is free, else an ephemeral one
     */
    static int next(final String host) throws IOException {
        final int ephemeralLow = ephemeralLowest();
        final int low = Math.max(SEARCH_LOW, ephemeralLow - SEARCH_SPAN);
        for (int attempt = 0; attempt < SEARCH_ATTEMPTS; attempt++) {
            final int candidate = low + ThreadLocalRandom.current().nextInt(ephemeralLow - low);
            if (HANDED_OUT.add(candidate) && bindable(host, candidate)) {
                return candidate;
            }
        }
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(host))) {
            return socket.getLocalPort();
        }
    }

    /** The lowest port the kernel gives to outgoing connections. */
    static int ephemeralLowest() {
        try {
            final int low = Integer.parseInt(Files.readString(EPHEMERAL_RANGE).trim().split("\\s+")[0]);
            return low > 2048 ? low : EPHEMERAL_LOWEST_DEFAULT;
        } catch (final IOException | RuntimeException ex) {
            return EPHEMERAL_LOWEST_DEFAULT; // not Linux, or not readable: assume the default
        }
    }

    private static boolean bindable(final String host, final int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true); // as the postmaster does: a port in TIME_WAIT is fine
            socket.bind(new InetSocketAddress(InetAddress.getByName(host), port), 1);
            return true;
        } catch (final IOException ex) {
            return false;
        }
    }
}
