package io.rdmarepl.channel.shm;

import io.rdmarepl.channel.ring.Doorbell;
import io.rdmarepl.channel.ring.FeedbackDescriptor;
import io.rdmarepl.channel.ring.ReaderEnd;
import io.rdmarepl.channel.ring.RingDescriptor;
import io.rdmarepl.channel.ring.RingHeader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The reader's (owner's) end of a shared-memory channel. Creating it replaces any file at the path
 * with a fresh one, so a writer still mapping an old file writes into an orphan and never into this
 * ring. Feedback is written straight into the shared file, so pushing it is a no-op. Its doorbell is a
 * UDP port on the loopback ({@link LoopbackDoorbell}), announced in the feedback region.
 */
public final class ShmReaderEnd implements ReaderEnd {
    private final ShmMapping mapping;
    private final String uri;
    private final boolean deleteOnClose;
    private final LoopbackDoorbell doorbell;
    private final LoopbackBellRinger bell;

    private ShmReaderEnd(ShmMapping mapping, boolean deleteOnClose) {
        this.mapping = mapping;
        this.uri = "shm://" + mapping.path.toAbsolutePath();
        this.deleteOnClose = deleteOnClose;
        this.doorbell = LoopbackDoorbell.openOrWarn(uri, "an idle reader parks for bounded periods instead");
        this.bell = new LoopbackBellRinger(uri);
        mapping.feedbackRegion.putInt(FeedbackDescriptor.DOORBELL_ADDRESS_OFFSET, doorbell == null ? 0 : doorbell.port());
    }

    @Override
    public void ringDoorbell() {
        int port = mapping.ringRegion.getInt(RingDescriptor.WRITER_DOORBELL_ADDRESS_OFFSET);
        if (port != 0) {
            bell.ring(port);
        }
    }

    /**
     * Creates the channel file and lays out the ring header.
     *
     * @param deleteOnClose remove the file when this end closes
     */
    public static ShmReaderEnd create(Path path, int capacity, int epoch, long ringId, boolean deleteOnClose) {
        RingDescriptor.checkCapacity(capacity);
        try {
            Files.deleteIfExists(path);
            Path parent = path.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create shared-memory ring shm://" + path.toAbsolutePath() + ": " + e, e);
        }
        try {
            ShmMapping mapping = ShmMapping.map(path, ShmMapping.create(path), capacity);
            RingHeader.initialise(mapping.ringRegion, capacity, epoch, ringId);
            return new ShmReaderEnd(mapping, deleteOnClose);
        } catch (RuntimeException e) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    @Override
    public ByteBuffer ringRegion() {
        return mapping.ringRegion;
    }

    @Override
    public ByteBuffer feedbackImage() {
        return mapping.feedbackRegion;
    }

    @Override
    public void pushFeedback() {
        // the image is the shared feedback region itself
    }

    @Override
    public Doorbell doorbell() {
        return doorbell;
    }

    @Override
    public String uri() {
        return uri;
    }

    public Path path() {
        return mapping.path;
    }

    @Override
    public void close() {
        if (doorbell != null) {
            doorbell.close();
        }
        bell.close();
        if (deleteOnClose) {
            try {
                Files.deleteIfExists(mapping.path);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot remove shared-memory ring " + mapping.path + ": " + e, e);
            }
        }
    }
}
