package io.rdmarepl.channel.ring;

/**
 * The reader's side of a doorbell: something an idle reader can block on, and that the writer rings
 * after publishing frames while the reader sleeps ({@link FeedbackDescriptor}). It replaces a timed
 * park, whose period is the wake-up latency of an idle standby, with a wake-up as fast as the kernel's.
 */
public interface Doorbell extends AutoCloseable {

    /**
     * Blocks until the bell rings or {@code timeoutNs} passed, then swallows every ring pending, so
     * that the next call blocks again. A stale ring only makes one sleep end early.
     */
    void await(long timeoutNs);

    @Override
    void close();
}
