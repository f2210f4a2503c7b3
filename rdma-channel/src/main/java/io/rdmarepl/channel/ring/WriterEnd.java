package io.rdmarepl.channel.ring;

import java.nio.ByteBuffer;

/**
 * The writer's end of a channel, provided by a transport. The writer stages frames in a local image
 * laid out exactly like the remote ring region ({@link RingDescriptor}) and asks the transport to
 * copy ranges of it to the same offsets remotely (an RDMA WRITE, or nothing at all when the image
 * is the shared memory itself).
 */
public interface WriterEnd extends AutoCloseable {

    /** Local image of the ring region: header (as learned at connect time) followed by the data area. Direct, little-endian. */
    ByteBuffer ringImage();

    /**
     * Makes {@code length} bytes of the image starting at {@code regionOffset} visible at the same
     * offset of the remote ring. One-sided and possibly asynchronous; never blocks on the reader.
     */
    void push(int regionOffset, int length);

    /**
     * Sends what {@link #push} holds back now, rather than with the next push of the producer position: a no-op where
     * every push is immediate. For a push that must not wait for the next publish.
     */
    default void flush() {
    }

    /** The feedback region ({@link FeedbackDescriptor}) the reader writes into. Direct, little-endian. */
    ByteBuffer feedbackRegion();

    /**
     * Position a new writer must start at, as the ring's owner determined it at connect time with
     * {@link RingScanner#resumePosition}; -1 when the image is the ring itself, and the writer finds
     * the position by scanning it.
     */
    default long resumePosition() {
        return -1;
    }

    /**
     * Throws, naming the channel, when the transport knows the far end is gone for good (the ring
     * was replaced, the connection failed). Called while the writer is back-pressured, and by
     * watchdogs on other threads: implementations must be thread-safe and must not block.
     */
    default void checkHealth() {
    }

    /**
     * Wakes a reader that said it sleeps ({@link FeedbackDescriptor#DOORBELL_SLEEP_OFFSET}); a no-op for a
     * transport without a doorbell. Must not block, and must not throw for an unreachable bell: the
     * reader's bounded sleep covers a ring that got lost.
     */
    default void ringDoorbell() {
    }

    /**
     * The doorbell this writer sleeps on while it waits for the reader's feedback, or null when the transport has
     * none. A transport with one stores its address in the image ({@link RingDescriptor#WRITER_DOORBELL_ADDRESS_OFFSET}).
     */
    default Doorbell doorbell() {
        return null;
    }

    /** Transport URI, for messages. */
    String uri();

    @Override
    void close();
}
