package io.rdmarepl.shipper.capture.pgoutput;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.BlockingQueue;

/**
 * One chunk of an initial copy on its way from a {@link CopySession} to the copy's single publisher: whole encoded
 * records back to back, {@link #length()} bytes of {@link #buffer()}. Reused: the publisher hands it back to its
 * session's free list once the records are in the Disruptor. It grows only for a record that does not fit the room
 * left past {@code snapshot.chunk.bytes}.
 *
 * <p>A chunk with {@link #end()} set carries no records: its session is done (and {@link #failure()} says whether it
 * failed).
 */
final class CopyChunk {
    /** Room past {@code snapshot.chunk.bytes}, so the record that crosses the limit usually fits without growing. */
    static final int SLACK_BYTES = 256 << 10;

    private final BlockingQueue<CopyChunk> home;
    private ByteBuffer buffer;
    private int length;
    private boolean end;
    private Throwable failure;

    CopyChunk(int chunkBytes, BlockingQueue<CopyChunk> home) {
        this.buffer = ByteBuffer.allocateDirect(chunkBytes + SLACK_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        this.home = home;
    }

    /** The marker a session sends when it is done: its last chunk, with {@code failure} null when all went well. */
    static CopyChunk end(Throwable failure) {
        CopyChunk marker = new CopyChunk(0, null);
        marker.end = true;
        marker.failure = failure;
        return marker;
    }

    ByteBuffer buffer() {
        return buffer;
    }

    int length() {
        return length;
    }

    int room() {
        return buffer.capacity() - length;
    }

    /** A record of {@code bytes} was written at {@link #length()}. */
    void advance(int bytes) {
        length += bytes;
    }

    /**
     * Makes room for twice what the buffer holds, keeping its first {@code keepBytes}: the records written so far and
     * the text of the one still open.
     */
    void grow(int keepBytes) {
        if (buffer.capacity() >= 1 << 30) {
            throw new IllegalStateException("initial copy: a single row is more than 1 GB of COPY text");
        }
        ByteBuffer bigger = ByteBuffer.allocateDirect(buffer.capacity() * 2).order(ByteOrder.LITTLE_ENDIAN);
        bigger.put(0, buffer, 0, keepBytes);
        buffer = bigger;
    }

    boolean end() {
        return end;
    }

    Throwable failure() {
        return failure;
    }

    /** Empties the chunk and returns it to its session, which fills it again. */
    void recycle() {
        length = 0;
        home.add(this);
    }
}
