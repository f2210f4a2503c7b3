package io.rdmarepl.coordinator.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Leadership of a {@link FileStateStore}: an exclusive OS lock on {@code <state file>.lock}. The kernel drops
 * the lock when the holding process dies, so a coordinator that crashed never blocks the next one. The lock
 * file itself is never deleted: deleting it would let two processes lock two different inodes of the same name.
 * The holder writes its pid into the file, so the error a second coordinator gets can say who holds it.
 *
 * <p>Within one JVM only one instance at a time may even open a given lock file. POSIX record locks belong to
 * the process, and closing <em>any</em> descriptor of the file drops them: a second store in the same JVM
 * that opened the file, found it locked and closed it again would silently free the first store's lock.
 */
final class LeaderLockFile implements AutoCloseable {
    /** Lock files this JVM has open, by real path. */
    private static final Set<Path> OPEN_IN_THIS_JVM = ConcurrentHashMap.newKeySet();

    private final Path path;
    private final Path key;
    private FileChannel channel;
    private FileLock lock;
    /** This instance has {@link #key} in {@link #OPEN_IN_THIS_JVM}. */
    private boolean registered;
    private boolean closed;

    private LeaderLockFile(Path path, Path key) {
        this.path = path;
        this.key = key;
    }

    /** Tries once to take the lock on {@code path}, creating the file if needed; never blocks. */
    static LeaderLockFile open(Path path) {
        Path key;
        try {
            key = path.toAbsolutePath().getParent().toRealPath().resolve(path.getFileName());
        } catch (IOException e) {
            throw new StateStoreException("cannot open lock file " + path + ": its directory is not accessible: " + e, e);
        }
        LeaderLockFile lockFile = new LeaderLockFile(path, key);
        lockFile.tryAcquire();
        return lockFile;
    }

    Path path() {
        return path;
    }

    /**
     * Takes the lock if nobody holds it now (for example because the previous holder exited); never blocks.
     *
     * @return whether this instance holds the lock afterwards
     */
    synchronized boolean tryAcquire() {
        if (lock != null) {
            return true;
        }
        if (closed || !OPEN_IN_THIS_JVM.add(key)) {
            return false;
        }
        registered = true;
        try {
            channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            lock = channel.tryLock();
        } catch (IOException e) {
            closeChannel();
            throw new StateStoreException("cannot lock " + path + ": " + e, e);
        }
        if (lock == null) {
            // another process holds it; nobody else in this JVM has the file open, so closing frees no one's lock
            closeChannel();
            return false;
        }
        recordHolder();
        return true;
    }

    synchronized boolean isHeld() {
        return lock != null && lock.isValid();
    }

    /** Who holds the lock, as far as this process can tell, e.g. {@code pid 4711}. */
    String holder() {
        if (!OPEN_IN_THIS_JVM.add(key)) {
            return "another store in this process (pid " + ProcessHandle.current().pid() + ")";
        }
        try (FileChannel reader = FileChannel.open(path, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate(64);
            reader.read(buffer);
            String holder = new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII).trim();
            return holder.isEmpty() ? "an unknown process" : holder;
        } catch (IOException e) {
            return "an unknown process";
        } finally {
            OPEN_IN_THIS_JVM.remove(key);
        }
    }

    private void recordHolder() {
        try {
            byte[] holder = ("pid " + ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII);
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(holder), 0);
        } catch (IOException e) {
            // the pid is only a hint for error messages; the lock itself is what counts
        }
    }

    /** Releases the lock (if held); later {@link #tryAcquire()} calls return false. */
    @Override
    public synchronized void close() {
        closed = true;
        closeChannel();
    }

    private void closeChannel() {
        try {
            if (channel != null) {
                // closing the channel releases the lock
                channel.close();
            }
        } catch (IOException e) {
            throw new StateStoreException("cannot close lock file " + path + ": " + e, e);
        } finally {
            channel = null;
            lock = null;
            if (registered) {
                registered = false;
                OPEN_IN_THIS_JVM.remove(key);
            }
        }
    }
}
