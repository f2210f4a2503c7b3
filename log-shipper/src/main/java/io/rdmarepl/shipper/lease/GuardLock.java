package io.rdmarepl.shipper.lease;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The lock a lease guard holds on {@code <lease file>.lock} for as long as it runs (an advisory lock, let go of by
 * the kernel when the process ends, however it ends): a second guard of one lease never runs, and a shipper can tell
 * whether one runs. The guard never closes another handle of that file, which would let go of the lock.
 */
public final class GuardLock implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;

    private GuardLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** @return the lock, or null when another process holds it */
    public static GuardLock tryAcquire(Path lockFile) throws IOException {
        FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                channel.close();
                return null;
            }
            return new GuardLock(channel, lock);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** Whether a guard (another process) holds the lock now; never call it in a process that holds it. */
    public static boolean held(Path lockFile) throws IOException {
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                return true;
            }
            lock.release();
            return false;
        } catch (OverlappingFileLockException e) {
            return true; // this process holds it (a test running a guard in-process)
        }
    }

    @Override
    public void close() throws IOException {
        lock.release();
        channel.close();
    }
}
