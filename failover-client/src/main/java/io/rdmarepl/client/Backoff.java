package io.rdmarepl.client;

import java.time.Duration;

/**
 * Bounded exponential backoff: {@code min}, {@code 2*min}, ... up to {@code max}, until {@link #reset()}.
 * Not thread safe: one per retrying thread.
 */
final class Backoff {
    private final long minMs;
    private final long maxMs;
    private long nextMs;

    Backoff(final Duration min, final Duration max) {
        if (min.isNegative() || min.isZero() || max.compareTo(min) < 0) {
            throw new IllegalArgumentException("backoff needs 0 < min <= max: min " + min + ", max " + max);
        }
        this.minMs = min.toMillis();
        this.maxMs = max.toMillis();
        this.nextMs = minMs;
    }

    long nextDelayMs() {
        final long delayMs = nextMs;
        nextMs = Math.min(maxMs, nextMs * 2);
        return delayMs;
    }

    void reset() {
        nextMs = minMs;
    }
}
