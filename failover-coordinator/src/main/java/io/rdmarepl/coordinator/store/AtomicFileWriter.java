package io.rdmarepl.coordinator.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Replaces a file so that readers and crashes only ever see the old or the new content, never a mix: write a
 * temp file in the same directory, fsync it, rename it over the target (atomic within one file system), fsync
 * the directory so the rename itself survives a power loss.
 *
 * <p>The temp file is {@code <file>.tmp}: callers hold the leader lock, so there is one writer at a time, and a
 * leftover from a crash is simply overwritten by the next write.
 */
final class AtomicFileWriter {
    private AtomicFileWriter() {
    }

    static Path tempFileOf(Path file) {
        return file.resolveSibling(file.getFileName() + ".tmp");
    }

    /**
     * @param sync wait for the disk (file and directory); without it the new content is what every reader sees at
     *             once, and it reaches the disk with the kernel's writeback or the next synced replace
     */
    static void replace(Path file, byte[] content, boolean sync) throws IOException {
        Path temp = tempFileOf(file);
        try {
            try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buffer = ByteBuffer.wrap(content);
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
                if (sync) {
                    out.force(true);
                }
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        if (sync) {
            fsyncDirectory(file.toAbsolutePath().getParent());
        }
    }

    private static void fsyncDirectory(Path directory) throws IOException {
        // Linux allows fsync on a directory opened read-only; that is what makes the rename durable
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        }
    }
}
