package io.rdmarepl.channel.shm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/** Ring files for tests: in /dev/shm when the host has it (memory, like production), else under target/. */
final class ShmTestFiles {
    private ShmTestFiles() {
    }

    static Path newRingPath(String name) {
        Path dir = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm", "rdmarepl-test") : Path.of("target", "rings");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir.resolve(name + "-" + UUID.randomUUID());
    }
}
