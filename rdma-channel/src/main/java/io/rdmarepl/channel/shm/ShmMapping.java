package io.rdmarepl.channel.shm;

import io.rdmarepl.channel.ring.FeedbackDescriptor;
import io.rdmarepl.channel.ring.RingDescriptor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/** A channel file mapped into this process, cut into its ring and feedback regions. */
final class ShmMapping {
    final Path path;
    final ByteBuffer ringRegion;
    final ByteBuffer feedbackRegion;

    private ShmMapping(Path path, MappedByteBuffer file, int capacity) {
        this.path = path;
        this.ringRegion = file.slice(0, RingDescriptor.regionLength(capacity)).order(ByteOrder.LITTLE_ENDIAN);
        this.feedbackRegion = file.slice(ShmDescriptor.feedbackOffset(capacity), FeedbackDescriptor.REGION_LENGTH)
                .order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Maps {@code length} bytes of an open file; the mapping outlives the channel, which is closed here. */
    static ShmMapping map(Path path, FileChannel channel, int capacity) {
        try (channel) {
            MappedByteBuffer file = channel.map(FileChannel.MapMode.READ_WRITE, 0, ShmDescriptor.fileLength(capacity));
            return new ShmMapping(path, file, capacity);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot map shared-memory ring shm://" + path.toAbsolutePath() + ": " + e, e);
        }
    }

    /** Creates the file readable and writable by owner and group only: it carries replicated rows. */
    static FileChannel create(Path path) {
        try {
            return FileChannel.open(path, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-rw----")));
        } catch (UnsupportedOperationException e) {
            try {
                return FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
            } catch (IOException io) {
                throw new UncheckedIOException("cannot create shared-memory ring shm://" + path.toAbsolutePath() + ": " + io, io);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create shared-memory ring shm://" + path.toAbsolutePath() + ": " + e, e);
        }
    }
}
