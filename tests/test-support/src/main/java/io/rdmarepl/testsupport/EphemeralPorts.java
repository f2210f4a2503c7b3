package io.rdmarepl.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The lowest port the kernel gives to outgoing connections (Linux: {@code net.ipv4.ip_local_port_range}).
 */
final class EphemeralPorts {
    /** Linux's default lower bound, and the IANA dynamic range's is higher still (49152). */
    static final int DEFAULT_LOWEST = 32768;
    private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    private EphemeralPorts() {
    }

    static int lowest() {
        try {
            final String[] bounds = Files.readString(RANGE).trim().split("\\s+");
            final int low = Integer.parseInt(bounds[0]);
            return low > 2048 ? low : DEFAULT_LOWEST;
        } catch (final IOException | RuntimeException ex) {
            return DEFAULT_LOWEST; // not Linux, or not readable: assume the default
        }
    }
}
