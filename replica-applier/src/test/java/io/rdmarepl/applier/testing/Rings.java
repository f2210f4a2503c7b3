package io.rdmarepl.applier.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/** Ring files for tests: in /dev/shm when the host has it, else under target/. */
public final class Rings {
    private Rings() {
    }

    public static String newUri(String name) {
        Path dir = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm", "rdmarepl-test") : Path.of("target", "rings");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return "shm://" + dir.toAbsolutePath().resolve(name + "-" + UUID.randomUUID());
    }
}
