package io.rdmarepl.channel.shm;

import io.rdmarepl.channel.ring.RingDescriptor;
import io.rdmarepl.channel.ring.RingHeader;
import io.rdmarepl.channel.ring.WriterEnd;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The writer's end of a shared-memory channel: maps the file the reader created. The image is the
 * shared ring itself, so frames are visible once committed and pushing is a no-op: true one-sided,
 * zero-copy writes from another process.
 */
public final class ShmWriterEnd implements WriterEnd {
    private final ShmMapping mapping;
    private final String uri;

    private ShmWriterEnd(ShmMapping mapping) {
        this.mapping = mapping;
        this.uri = "shm://" + mapping.path.toAbsolutePath();
    }

    /**
     * Maps an existing channel file.
     *
     * @throws IllegalStateException naming the path when the file is missing, not a ring, or of another layout version
     */
    public static ShmWriterEnd attach(Path path) {
        FileChannel channel;
        try {
            channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (NoSuchFileException e) {
            throw new IllegalStateException("shared-memory ring " + path + " does not exist: start the reader (standby) side first");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open shared-memory ring " + path + ": " + e, e);
        }
        int capacity;
        try {
            long size = channel.size();
            if (size < RingDescriptor.DATA_OFFSET) {
                channel.close();
                throw new IllegalStateException("not an rdmarepl ring: " + path + " is " + size + " bytes long");
            }
            MappedByteBuffer header = channel.map(FileChannel.MapMode.READ_ONLY, 0, RingDescriptor.DATA_OFFSET);
            header.order(ByteOrder.LITTLE_ENDIAN);
            capacity = RingHeader.verifyHeader(header, path.toString());
            if (size < ShmDescriptor.fileLength(capacity)) {
                channel.close();
                throw new IllegalStateException("shared-memory ring " + path + " declares capacity " + capacity
                        + " but the file is only " + size + " bytes long");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read shared-memory ring " + path + ": " + e, e);
        }
        ShmMapping mapping = ShmMapping.map(path, channel, capacity);
        RingHeader.verify(mapping.ringRegion, path.toString());
        return new ShmWriterEnd(mapping);
    }

    @Override
    public ByteBuffer ringImage() {
        return mapping.ringRegion;
    }

    @Override
    public void push(int regionOffset, int length) {
        // the image is the shared ring itself: committed frames are already there
    }

    @Override
    public ByteBuffer feedbackRegion() {
        return mapping.feedbackRegion;
    }

    @Override
    public String uri() {
        return uri;
    }

    @Override
    public void close() {
        // the mapping is released with its last reference; nothing to flush for tmpfs-backed memory
    }
}
