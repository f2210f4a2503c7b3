package io.rdmarepl.coordinator.store;

import io.rdmarepl.coordinator.state.ClusterState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The default store, for a single coordinator: one JSON file, {@code {"version": n, "state": {...}}}, e.g.
 * {@code /var/lib/rdmarepl/main.json}.
 *
 * <p>Leadership is an exclusive lock on {@code <file>.lock}, taken at {@link #open} and retried by
 * {@link #isLeader()}, so a second coordinator on the same host takes over as soon as the first one exits.
 * Only the lock holder may write: {@link #compareAndSet} of a store that does not hold it throws
 * {@link StateStoreException} "state file X is locked by another coordinator" rather than returning
 * {@link #NOTHING_STORED}, because re-reading and retrying (what a lost race asks for) could never succeed.
 * The lock is what makes the version check safe here: unlike ZooKeeper, the file system cannot compare and
 * write in one step, so two unlocked writers could both pass the check. It also makes the leader the file's only
 * writer, so the leader compares against the version it last wrote, kept in memory, and reads the file only
 * after taking the lock: a failover's transitions then each cost one write, not a read, a parse and a write.
 *
 * <p>Every write replaces the whole file atomically ({@link AtomicFileWriter}), so a reader or a crash sees
 * either the previous or the next version, never half a document. A {@link Durability#LAZY} write reaches the
 * file a few milliseconds after {@link #compareAndSet} returns ({@link StateFileWriter}): other readers (a
 * following coordinator) see it then, while the leader's own {@link #read()} answers with what it stored last.
 */
public final class FileStateStore implements StateStore {
    private static final Logger LOG = LoggerFactory.getLogger(FileStateStore.class);

    private final Path file;
    private final String source;
    private final LeaderLockFile lock;
    private final StateFileWriter writer;
    private volatile boolean closed;
    /**
     * What this store stored last while it holds the lock (the file catches up with a lazy write a little later),
     * or null until the file is read again: before the first write, after a takeover, after a failed write.
     */
    private volatile Versioned<ClusterState> stored;

    private FileStateStore(Path file, LeaderLockFile lock) {
        this.file = file;
        this.source = "state file " + file;
        this.lock = lock;
        this.writer = new StateFileWriter(file);
    }

    /**
     * Opens the store and tries (without blocking) to become the leader.
     *
     * @throws StateStoreException when the file's directory does not exist or the lock file cannot be opened
     */
    public static FileStateStore open(Path file) {
        Path directory = file.toAbsolutePath().getParent();
        if (!Files.isDirectory(directory)) {
            throw new StateStoreException("cannot open state file " + file + ": directory " + directory + " does not exist");
        }
        LeaderLockFile lock = LeaderLockFile.open(lockFileOf(file));
        if (!lock.isHeld()) {
            LOG.info("{} is locked by {}; this coordinator follows until the lock is free", file, lock.holder());
        }
        return new FileStateStore(file, lock);
    }

    public static Path lockFileOf(Path file) {
        return file.resolveSibling(file.getFileName() + ".lock");
    }

    public Path file() {
        return file;
    }

    /** The file's content; for the leader, what it stored last (a lazy write may not be in the file yet). */
    @Override
    public Versioned<ClusterState> read() {
        Versioned<ClusterState> last = stored;
        if (last != null && lock.isHeld()) {
            return last;
        }
        return readFile();
    }

    private Versioned<ClusterState> readFile() {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return new Versioned<>(null, NOTHING_STORED);
        } catch (IOException e) {
            throw new StateStoreException("cannot read " + source + ": " + e, e);
        }
        return ClusterStateJson.readVersioned(bytes, source);
    }

    /**
     * @throws StateStoreException when this store is not the leader ("state file X is locked by another
     *                             coordinator"), when the file is corrupt or cannot be written
     */
    @Override
    public synchronized long compareAndSet(long expectedVersion, ClusterState next, Durability durability) {
        Objects.requireNonNull(next, "next");
        if (closed) {
            throw new StateStoreException("cannot write " + source + ": this store is closed");
        }
        if (!isLeader()) {
            throw new StateStoreException(source + " is locked by another coordinator (" + lock.holder() + " holds "
                    + lock.path() + "); only the leader writes");
        }
        Versioned<ClusterState> current = stored;
        if (current == null) {
            current = readFile();
            stored = current;
        }
        if (current.version() != expectedVersion) {
            return NOTHING_STORED;
        }
        long version = current.version() + 1;
        try {
            byte[] content = ClusterStateJson.writeVersioned(version, next);
            if (durability == Durability.SYNCED) {
                writer.writeNow(version, content);
            } else {
                writer.writeLater(version, content);
            }
        } catch (IOException e) {
            stored = null; // the rename may or may not have happened: read the file to know
            throw new StateStoreException("cannot write " + source + ": " + e, e);
        }
        stored = new Versioned<>(next, version);
        return version;
    }

    /** Holds the lock now; never takes it. */
    @Override
    public boolean holdsLeadership() {
        return !closed && lock.isHeld();
    }

    /** Holds the lock now; if it was free (its holder exited) this call takes it. */
    @Override
    public boolean isLeader() {
        if (closed) {
            return false;
        }
        if (lock.isHeld()) {
            return true;
        }
        boolean tookOver = lock.tryAcquire();
        if (tookOver) {
            stored = null; // the previous leader wrote since this store last knew
            LOG.info("took the lock {}: this coordinator now leads {}", lock.path(), file);
        }
        return tookOver;
    }

    @Override
    public String describe() {
        if (closed) {
            return "file " + file + " (closed)";
        }
        return "file " + file + (isLeader() ? " (leader)" : " (follower, locked by " + lock.holder() + ")");
    }

    /** Waits for a write under way (synchronized with {@link #compareAndSet}), then for what is pending. */
    @Override
    public synchronized void close() {
        closed = true;
        writer.close(); // what is pending reaches the file while this store still holds the lock
        lock.close();
    }
}
