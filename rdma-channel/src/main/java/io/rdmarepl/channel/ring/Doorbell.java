package io.rdmarepl.channel.ring;

/**
 * One end's doorbell: something that end can block on, and that the far end rings when it has news while
 * this end said it sleeps. The reader's is rung by the writer after publishing frames
 * ({@link FeedbackDescriptor}); the writer's by the reader after publishing feedback ({@link RingDescriptor}).
 * It replaces a timed park, whose period (plus the kernel's timer slack) is the wake-up latency, with a
 * wake-up as fast as the kernel's.
 */
public interface Doorbell extends AutoCloseable {

    /**
     * Blocks until the bell rings or {@code timeoutNs} passed, then swallows every ring pending, so
     * that the next call blocks again. A stale ring only makes one sleep end early.
     *
     * @return true when a ring ended or cut short the wait (stale or not), false when the time ran out
     */
    boolean await(long timeoutNs);

    /** Ends the current await, or the next one, at once. Any thread; for news that comes from this process. */
    void wakeUp();

    @Override
    void close();
}
