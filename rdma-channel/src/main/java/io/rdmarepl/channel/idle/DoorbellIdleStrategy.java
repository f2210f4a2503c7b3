package io.rdmarepl.channel.idle;

import io.rdmarepl.channel.ring.RingReader;

/**
 * Idles a ring reader whose transport has a doorbell: spins, then yields, then sleeps until the writer
 * publishes ({@link RingReader#sleepUntilWritten}), for at most {@code maxSleepNs}. A frame written while
 * the reader sleeps is read as soon as the kernel wakes it, not at the end of a park period.
 */
public final class DoorbellIdleStrategy implements IdleStrategy {
    private final RingReader reader;
    private final long maxSpins;
    private final long maxYields;
    private final long maxSleepNs;
    private long spins;
    private long yields;

    public DoorbellIdleStrategy(RingReader reader, long maxSpins, long maxYields, long maxSleepNs) {
        if (!reader.hasDoorbell()) {
            throw new IllegalArgumentException("ring " + reader.uri() + " has no doorbell");
        }
        if (maxSpins < 0 || maxYields < 0 || maxSleepNs < 1) {
            throw new IllegalArgumentException("doorbell idling needs spins >= 0, yields >= 0, maxSleepNs >= 1: spins="
                    + maxSpins + " yields=" + maxYields + " maxSleepNs=" + maxSleepNs);
        }
        this.reader = reader;
        this.maxSpins = maxSpins;
        this.maxYields = maxYields;
        this.maxSleepNs = maxSleepNs;
    }

    /** The doorbell strategy when the reader's transport has one, otherwise {@link BackoffIdleStrategy} parking up to {@code maxSleepNs}. */
    public static IdleStrategy forReader(RingReader reader, long maxSpins, long maxYields, long maxSleepNs) {
        return reader.hasDoorbell() ? new DoorbellIdleStrategy(reader, maxSpins, maxYields, maxSleepNs)
                : new BackoffIdleStrategy(maxSpins, maxYields, Math.min(1_000, maxSleepNs), maxSleepNs);
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            reset();
        } else if (spins < maxSpins) {
            spins++;
            Thread.onSpinWait();
        } else if (yields < maxYields) {
            yields++;
            Thread.yield();
        } else {
            reader.sleepUntilWritten(maxSleepNs);
        }
    }

    @Override
    public void reset() {
        spins = 0;
        yields = 0;
    }
}
