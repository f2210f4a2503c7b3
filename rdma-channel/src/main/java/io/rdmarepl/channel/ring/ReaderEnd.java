package io.rdmarepl.channel.ring;

import java.nio.ByteBuffer;

/**
 * The reader's end of a channel, provided by a transport: the ring region writers write into, and a
 * feedback image the reader fills and pushes to the writer's feedback region.
 */
public interface ReaderEnd extends AutoCloseable {

    /** The ring region ({@link RingDescriptor}) in local memory, initialised by the transport. Direct, little-endian. */
    ByteBuffer ringRegion();

    /** Local image of the writer's feedback region ({@link FeedbackDescriptor}). Direct, little-endian. */
    ByteBuffer feedbackImage();

    /** Makes the whole feedback image visible in the writer's feedback region (one-sided). */
    void pushFeedback();

    /**
     * The doorbell an idle reader sleeps on, or null when the transport has none (the reader then parks
     * for bounded periods). A transport with a doorbell stores its address in the feedback image
     * ({@link FeedbackDescriptor#DOORBELL_ADDRESS_OFFSET}).
     */
    default Doorbell doorbell() {
        return null;
    }

    /**
     * Makes the sleep word the reader just stored in the feedback image ({@link FeedbackDescriptor#DOORBELL_SLEEP_OFFSET})
     * visible to the writer, ahead of the next report: a no-op where the image is shared with the writer. Called on
     * the polling thread before every sleep on {@link #doorbell()}; must not block. A transport that writes the word
     * over the wire may skip a word it already wrote to the writer connected now ({@code newWord} false).
     *
     * @param newWord the word differs from the last sleep's
     */
    default void announceSleep(boolean newWord) {
    }

    /**
     * Wakes a writer that said it sleeps until the next feedback ({@link RingDescriptor#WRITER_DOORBELL_SLEEP_OFFSET});
     * a no-op for a transport without a doorbell. Must not block, and must not throw for an unreachable bell.
     */
    default void ringDoorbell() {
    }

    /** Transport URI, for messages. */
    String uri();

    @Override
    void close();
}
