package io.rdmarepl.coordinator.store;

import java.io.IOException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state file's only writer, for the store that holds the lock. A synced write replaces the file and fsyncs it
 * on the caller's thread. A lazy one is handed to a thread of its own and the caller goes on: a failover's way
 * stations (SUSPECT, FENCING, DRAINING, PROMOTED) each cost the coordinator 1 to 15 ms of rename on a busy ext4
 * disk otherwise, on the path to the promotion. The file only ever moves forward: a lazy write is skipped when a
 * newer version reached the file first, and of several pending lazy writes only the newest is written.
 *
 * <p>A lazy write that fails is logged and reported to the next write, which then throws.
 */
final class StateFileWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StateFileWriter.class);

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
    /** Guarded by this: a write is under way on the writer thread. */
    private boolean writing;
    /** Guarded by this: why the last lazy write failed, until a caller is told. */
    private IOException failure;
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
     * @throws IOException why the previous lazy write failed (this one is not taken)
     */
    synchronized void writeLater(long version, byte[] content) throws IOException {
        throwFailure();
        if (closed) {
            throw new IOException("the state writer is closed");
        }
        pending = new Pending(version, content);
        notifyAll();
    }

    /**
     * Replaces the file with version {@code version} and fsyncs it before returning; a pending lazy write of an
     * older version is dropped (this one carries everything it did).
     *
     * @throws IOException when this write fails, or why the previous lazy write failed
     */
    void writeNow(long version, byte[] content) throws IOException {
        synchronized (this) {
            throwFailure();
            if (pending != null && pending.version() <= version) {
                pending = null;
                notifyAll();
            }
        }
        synchronized (io) {
            AtomicFileWriter.replace(file, content, true);
            writtenVersion = Math.max(writtenVersion, version);
        }
    }

    /** Returns once every lazy write handed over so far is in the file (or failed). */
    void flush() throws InterruptedException {
        synchronized (this) {
            while (pending != null || writing) {
                wait();
            }
        }
    }

    private void throwFailure() throws IOException {
        IOException failed = failure;
        if (failed != null) {
            failure = null;
            throw failed;
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
                writing = true;
            }
            IOException failed = null;
            synchronized (io) {
                if (next.version() > writtenVersion) {
                    try {
                        AtomicFileWriter.replace(file, next.content(), false);
                        writtenVersion = next.version();
                    } catch (IOException e) {
                        failed = e;
                    }
                }
            }
            synchronized (this) {
                writing = false;
                if (failed != null) {
                    LOG.error("cannot write state file {} (version {}): {}", file, next.version(), failed.getMessage());
                    failure = new IOException("the write of version " + next.version() + " failed: " + failed.getMessage(), failed);
                }
                notifyAll();
            }
        }
    }

    /** Writes what is pending, then stops the thread. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
