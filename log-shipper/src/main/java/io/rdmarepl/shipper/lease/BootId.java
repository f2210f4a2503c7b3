package io.rdmarepl.shipper.lease;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * This boot of the host ({@code /proc/sys/kernel/random/boot_id}): {@link System#nanoTime()} counts from boot, so a
 * lease file written before a reboot tells nothing about now. Zero where the kernel does not say.
 */
final class BootId {
    private static final Path FILE = Path.of("/proc/sys/kernel/random/boot_id");
    static final UUID CURRENT = read();

    private BootId() {
    }

    private static UUID read() {
        try {
            return UUID.fromString(Files.readString(FILE).trim());
        } catch (IOException | IllegalArgumentException e) {
            return new UUID(0, 0);
        }
    }
}
