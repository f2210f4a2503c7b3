package io.rdmarepl.applier.role;

import io.rdmarepl.applier.apply.ApplierControl;
import io.rdmarepl.applier.apply.ApplierState;
import io.rdmarepl.applier.apply.ApplierStatus;
import io.rdmarepl.applier.config.ApplierConfig;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** Stands in for an Applier in lifecycle tests: its state moves only when asked, and it remembers being closed. */
final class FakeApplier implements ApplierControl {
    final ApplierConfig config;
    volatile ApplierState state = ApplierState.STREAMING;
    volatile int epoch;
    volatile boolean closed;
    volatile long lastMessageAgeMs = 3;
    /** How often the ring's age was read (a status watch holding reads it over and over). */
    final java.util.concurrent.atomic.AtomicInteger ageReads = new java.util.concurrent.atomic.AtomicInteger();

    FakeApplier(ApplierConfig config) {
        this.config = config;
        this.epoch = config.ringEpoch();
    }

    @Override
    public ApplierStatus status() {
        return new ApplierStatus(state, state.displayName(), 0, config.sourceName(), 0x10, 1, 0x10, 0, 0, 0,
                config.ringUri().text(), epoch, 0, 0, 0, 1, 1, 0, 0, 0, 0, null);
    }

    @Override
    public Map<String, Object> statusDocument() {
        Map<String, Object> document = new LinkedHashMap<>(status().toMap());
        document.put("last_message_age_ms", lastMessageAgeMs);
        return document;
    }

    @Override
    public long lastMessageAgeMs() {
        ageReads.incrementAndGet();
        return lastMessageAgeMs;
    }

    @Override
    public boolean healthy() {
        return !closed && !state.paused();
    }

    @Override
    public CompletableFuture<Long> drain() {
        state = ApplierState.DRAINING;
        return CompletableFuture.completedFuture(0x10L);
    }

    @Override
    public void follow() {
        if (state == ApplierState.DRAINING) {
            state = ApplierState.STREAMING;
        }
    }

    @Override
    public Map<String, Long> promote(Duration timeout) {
        state = ApplierState.PROMOTED;
        return Map.of();
    }

    @Override
    public void epoch(int epoch) {
        this.epoch = epoch;
    }

    @Override
    public void close() {
        closed = true;
        state = ApplierState.STOPPED;
    }
}
