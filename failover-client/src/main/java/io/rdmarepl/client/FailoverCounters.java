package io.rdmarepl.client;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Events worth a metric, counted where they happen and read by {@link FailoverDataSource#status()}.
 */
final class FailoverCounters {
    private final AtomicLong failoversSeen = new AtomicLong();
    private final AtomicLong failedAttempts = new AtomicLong();

    void failoverSeen() {
        failoversSeen.incrementAndGet();
    }

    void failedAttempt() {
        failedAttempts.incrementAndGet();
    }

    long failoversSeen() {
        return failoversSeen.get();
    }

    long failedAttempts() {
        return failedAttempts.get();
    }
}
