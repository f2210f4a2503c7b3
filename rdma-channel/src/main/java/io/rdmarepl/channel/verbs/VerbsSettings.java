package io.rdmarepl.channel.verbs;

/**
 * Tuning of the verbs transport.
 *
 * @param connectTimeoutMs    how long a writer keeps trying to reach a standby (with back-off) before failing
 * @param handshakeTimeoutMs  how long each side waits for the other's handshake message
 * @param completionTimeoutMs how long a full send queue may wait for a completion before the peer is declared dead
 * @param sendQueueDepth      work requests in flight per queue pair
 * @param signalInterval      one signalled work request per this many (at most half the depth)
 * @param feedbackIntervalUs  the standby writes feedback at most this often from its polling thread; a
 *                            report held back is written by the conductor within about a millisecond
 */
public record VerbsSettings(int connectTimeoutMs, int handshakeTimeoutMs, int completionTimeoutMs, int sendQueueDepth,
                            int signalInterval, int feedbackIntervalUs) {
    public VerbsSettings {
        if (connectTimeoutMs < 1 || handshakeTimeoutMs < 1 || completionTimeoutMs < 1 || sendQueueDepth < 4
                || signalInterval < 1 || signalInterval > sendQueueDepth / 2 || feedbackIntervalUs < 0) {
            throw new IllegalArgumentException("verbs settings need positive timeouts, sendQueueDepth >= 4, "
                    + "1 <= signalInterval <= sendQueueDepth / 2 and feedbackIntervalUs >= 0: " + this);
        }
    }

    /** 10 s to connect, 5 s handshake and completion timeouts, depth 256, one signal per 16, feedback every 50 us at most. */
    public static VerbsSettings defaults() {
        return new VerbsSettings(10_000, 5_000, 5_000, 256, 16, 50);
    }

    public VerbsSettings withConnectTimeoutMs(int timeoutMs) {
        return new VerbsSettings(timeoutMs, handshakeTimeoutMs, completionTimeoutMs, sendQueueDepth, signalInterval, feedbackIntervalUs);
    }
}
