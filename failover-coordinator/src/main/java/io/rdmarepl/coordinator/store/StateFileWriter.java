package io.rdmarepl.coordinator.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state file's only writer, for the store that holds the lock. A synced write replaces the file and fsyncs it
 * on the caller's thread. A lazy one is handed to a thread of its own and the caller goes on: a failover's way
 * stations (SUSPECT, FENCING, DRAINING, PROMOTED) each cost the coordinator 1 to 15 ms of rename on a busy ext4
 * disk otherwise, on the path to the promotion. The file only ever moves forward: a lazy write is skipped when a
 * newer version reached the file first, and of several pending lazy writes only the newest is written.
 *
 * <p>Every write carries the whole state, so a lazy write that fails (logged) is made good by the next write of
 * either kind; until then the file holds an older version, as after a crash.
 */
final class StateFileWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StateFileWriter.class);
    /** How long {@link #close()} waits for a pending write before it gives up on it (a hung disk). */
    private static final long CLOSE_WAIT_MS = 30_000;

    private record Pending(long version, byte[] content) {
    }

    private final Path file;
    private final Thread thread;
    /** Held while the file is replaced: synced and lazy writes take turns, and each knows the other's version. */
    private final Object io = new Object();
    /** Guarded by {@link #io}. */
    private long writtenVersion = Long.MIN_VALUE;
    /** Guarded by this. */
    private Pending pending;
    /** Guarded by this. */
    private boolean closed;

    StateFileWriter(Path file) {
        this.file = file;
        this.thread = new Thread(this::writeUntilClosed, "rdmarepl-state-writer");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Version {@code version} goes to the file soon, unless a newer one gets there first.
     *
     * @throws IOException when this writer is closed
     */
    synchronized void writeLater(long version, byte[] content) throws IOException {
        if (closed) {
            throw new IOException("the state writer is closed");
        }
        pending = new Pending(version, content);
        notifyAll();
    }

    /**
     * Replaces the file with version {@code version} and fsyncs it before returning; a pending lazy write of an
     * older version is then dropped (this one carries everything it did).
     *
     * @throws IOException when this write fails (a pending lazy write is kept: it may still land)
     */
    void writeNow(long version, byte[] content) throws IOException {
        synchronized (io) {
            AtomicFileWriter.replace(file, content, true);
            writtenVersion = Math.max(writtenVersion, version);
        }
        synchronized (this) {
            if (pending != null && pending.version() <= version) {
                pending = null;
            }
        }
    }

    private void writeUntilClosed() {
        while (true) {
            Pending next;
            synchronized (this) {
                while (pending == null && !closed) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        // nothing interrupts this thread on purpose: close() wakes it, and it writes what is pending first
                    }
                }
                if (pending == null) {
                    return;
                }
                next = pending;
                pending = null;
            }
            try {
                synchronized (io) {
                    if (next.version() > writtenVersion) {
                        AtomicFileWriter.replace(file, next.content(), false);
                        writtenVersion = next.version();
                    }
                }
            } catch (IOException | RuntimeException e) {
                LOG.error("cannot write state file {} (version {}, written without fsync): {}; the next write carries it",
                        file, next.version(), e.getMessage() == null ? e.toString() : e.getMessage());
            }
        }
    }

    /**
     * Writes what is pending, then stops the thread; waits for that even when interrupted (the caller releases
     * the lock next, and a write landing after that could overwrite the next leader's), up to 30 s.
     */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MS);
        boolean interrupted = false;
        while (thread.isAlive() && deadlineNs - System.nanoTime() > 0) {
            try {
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime())));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (thread.isAlive()) {
            LOG.error("state file {}: a write did not finish within {} s; closing without it", file, CLOSE_WAIT_MS / 1000);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
