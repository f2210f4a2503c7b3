package io.rdmarepl.applier.apply;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Where {@link GroupLog} keeps a group too large for memory: a temporary file, unlinked as soon as it is open (so
 * nothing is left behind, even after a kill -9), mapped into memory. The kernel pages it in and out, so the
 * applier's heap and direct memory stay bounded whatever the size of a source transaction; the disk holds it.
 */
final class SpillFile implements AutoCloseable {
    private final Path directory;
    private FileChannel channel;

    SpillFile(Path directory) {
        this.directory = directory;
    }

    /**
     * The file mapped from its start, {@code capacity} bytes long, keeping what an earlier mapping held.
     *
     * @throws UncheckedIOException naming the directory when the file cannot be made or grown (a full disk)
     */
    ByteBuffer map(int capacity) {
        try {
            if (channel == null) {
                Path file = Files.createTempFile(directory, "rdmarepl-group-", ".spill");
                channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
                Files.delete(file);
            }
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, capacity).order(ByteOrder.LITTLE_ENDIAN);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep a group of " + capacity + " bytes in a file in " + directory
                    + " (the applier spills a transaction larger than memory there): " + e.getMessage(), e);
        }
    }

    /** Gives the disk space back; the mappings must no longer be used. */
    void release() {
        if (channel != null) {
            try {
                channel.truncate(0);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot truncate the applier's spill file in " + directory, e);
            }
        }
    }

    @Override
    public void close() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing is left to free: the file was unlinked at creation
            }
            channel = null;
        }
    }
}
