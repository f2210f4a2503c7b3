package io.rdmarepl.benchmarks;

import io.rdmarepl.channel.shm.ShmPaths;
import io.rdmarepl.channel.shm.ShmReaderEnd;
import java.util.UUID;

/** Benchmarks run over the real shared-memory transport, in /dev/shm where the host has it. */
final class ShmRings {
    private ShmRings() {
    }

    static ShmReaderEnd create(int capacity) {
        return ShmReaderEnd.create(ShmPaths.ring("rdmarepl-jmh-" + UUID.randomUUID()), capacity, 1, 1L, true);
    }
}
