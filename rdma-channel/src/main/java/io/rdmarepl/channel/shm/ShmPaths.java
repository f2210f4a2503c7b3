package io.rdmarepl.channel.shm;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where shared-memory rings go by default: /dev/shm (memory, not disk) where the host has it, else the temp dir. */
public final class ShmPaths {
    private ShmPaths() {
    }

    public static Path directory() {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }

    /** {@code <directory>/<name>}, absolute. */
    public static Path ring(String name) {
        return directory().resolve(name).toAbsolutePath();
    }
}
