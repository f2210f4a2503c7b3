package io.rdmarepl.benchmarks;

import io.rdmarepl.channel.shm.ShmReaderEnd;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/** Benchmarks run over the real shared-memory transport, in /dev/shm where the host has it. */
final class ShmRings {
    private ShmRings() {
    }

    static ShmReaderEnd create(int capacity) {
        Path dir = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm") : Path.of(System.getProperty("java.io.tmpdir"));
        return ShmReaderEnd.create(dir.resolve("rdmarepl-jmh-" + UUID.randomUUID()), capacity, 1, 1L, true);
    }
}
