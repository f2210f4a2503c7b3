package io.rdmarepl.channel.shm;

import io.rdmarepl.channel.ring.Doorbell;
import io.rdmarepl.channel.ring.FeedbackDescriptor;
import io.rdmarepl.channel.ring.RingDescriptor;
import io.rdmarepl.channel.ring.RingHeader;
import io.rdmarepl.channel.ring.WriterEnd;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * The writer's end of a shared-memory channel: maps the file the reader created. The image is the
 * shared ring itself, so frames are visible once committed and pushing is a no-op: true one-sided,
 * zero-copy writes from another process.
 */
public final class ShmWriterEnd implements WriterEnd {
    private final ShmMapping mapping;
    private final String uri;
    private final Object fileKey;
    private final LoopbackBellRinger bell;
    private final LoopbackDoorbell doorbell;

    private ShmWriterEnd(ShmMapping mapping, Object fileKey) {
        this.mapping = mapping;
        this.uri = "shm://" + mapping.path.toAbsolutePath();
        this.fileKey = fileKey;
        this.bell = new LoopbackBellRinger(uri);
        this.doorbell = LoopbackDoorbell.openOrWarn(uri, "a shipper waiting for acknowledgements polls the feedback instead");
        mapping.ringRegion.putInt(RingDescriptor.WRITER_DOORBELL_ADDRESS_OFFSET, doorbell == null ? 0 : doorbell.port());
    }

    @Override
    public Doorbell doorbell() {
        return doorbell;
    }

    /**
     * Maps an existing channel file.
     *
     * @throws IllegalStateException naming the channel when the file is missing, not (yet) a ring, or of another layout version
     */
    public static ShmWriterEnd attach(Path path) {
        String uri = "shm://" + path.toAbsolutePath();
        FileChannel channel;
        try {
            channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (NoSuchFileException e) {
            throw new IllegalStateException("shared-memory ring " + uri + " does not exist: start the reader (standby) side first");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open shared-memory ring " + uri + ": " + e, e);
        }
        try {
            Object fileKey = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
            long size = channel.size();
            if (size < RingDescriptor.DATA_OFFSET) {
                throw new IllegalStateException("shared-memory ring " + uri + " is not initialised yet (" + size
                        + " bytes): retry once the reader has created it");
            }
            MappedByteBuffer header = channel.map(FileChannel.MapMode.READ_ONLY, 0, RingDescriptor.DATA_OFFSET);
            header.order(ByteOrder.LITTLE_ENDIAN);
            int capacity = RingHeader.verifyHeader(header, uri);
            if (size < ShmDescriptor.fileLength(capacity)) {
                throw new IllegalStateException("shared-memory ring " + uri + " declares capacity " + capacity
                        + " but the file is only " + size + " bytes long");
            }
            ShmMapping mapping = ShmMapping.map(path, channel, capacity);
            RingHeader.verify(mapping.ringRegion, uri);
            return new ShmWriterEnd(mapping, fileKey);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException("cannot read shared-memory ring " + uri + ": " + e, e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
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
    public void ringDoorbell() {
        int port = mapping.feedbackRegion.getInt(FeedbackDescriptor.DOORBELL_ADDRESS_OFFSET);
        if (port != 0) {
            bell.ring(port);
        }
    }

    /** A reader that restarted replaced the file: this mapping is an orphan nobody reads. */
    @Override
    public void checkHealth() {
        Object current;
        try {
            current = Files.readAttributes(mapping.path, BasicFileAttributes.class).fileKey();
        } catch (IOException e) {
            current = null;
        }
        if (fileKey != null && !Objects.equals(fileKey, current)) {
            throw new IllegalStateException("shared-memory ring " + uri
                    + " was replaced or removed by its reader (standby restarted): attach again");
        }
    }

    @Override
    public String uri() {
        return uri;
    }

    @Override
    public void close() {
        // the mapping is released with its last reference; nothing to flush for tmpfs-backed memory
        bell.close();
        if (doorbell != null) {
            doorbell.close();
        }
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // already failing with the reason that matters
        }
    }
}
