package io.rdmarepl.channel.idle;

import io.rdmarepl.channel.ring.RingReader;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * Spins for a budget, then yields, then sleeps for exponentially longer periods up to a bound, so
 * a busy ring is read within nanoseconds and an idle one costs (almost) no CPU. The sleep is a park,
 * or, for a ring reader whose transport has a doorbell, a sleep the writer ends by ringing it
 * ({@link #forReader}).
 */
public final class BackoffIdleStrategy implements IdleStrategy {
    private final LongConsumer sleep;
    private final long maxSpins;
    private final long maxYields;
    private final long minParkNs;
    private final long maxParkNs;
    private long spins;
    private long yields;
    private long parkNs;

    /**
     * @param maxSpins  polls to spin through before yielding
     * @param maxYields yields before parking
     * @param minParkNs first park period
     * @param maxParkNs longest park period, which bounds the wake-up latency of an idle reader
     */
    public BackoffIdleStrategy(long maxSpins, long maxYields, long minParkNs, long maxParkNs) {
        this(LockSupport::parkNanos, maxSpins, maxYields, minParkNs, maxParkNs);
    }

    private BackoffIdleStrategy(LongConsumer sleep, long maxSpins, long maxYields, long minParkNs, long maxParkNs) {
        this.sleep = sleep;
        if (maxSpins < 0 || maxYields < 0 || minParkNs < 1 || maxParkNs < minParkNs) {
            throw new IllegalArgumentException("back-off needs spins >= 0, yields >= 0, 1 <= minParkNs <= maxParkNs: spins="
                    + maxSpins + " yields=" + maxYields + " minParkNs=" + minParkNs + " maxParkNs=" + maxParkNs);
        }
        this.maxSpins = maxSpins;
        this.maxYields = maxYields;
        this.minParkNs = minParkNs;
        this.maxParkNs = maxParkNs;
        this.parkNs = minParkNs;
    }

    /**
     * For a ring reader: when its transport has a doorbell, the sleep is {@link RingReader#sleepUntilWritten} for
     * {@code maxSleepNs} at once (the writer ends it); otherwise parks from 1 µs up to {@code maxSleepNs}.
     */
    public static BackoffIdleStrategy forReader(RingReader reader, long maxSpins, long maxYields, long maxSleepNs) {
        return reader.hasDoorbell()
                ? new BackoffIdleStrategy(reader::sleepUntilWritten, maxSpins, maxYields, maxSleepNs, maxSleepNs)
                : new BackoffIdleStrategy(maxSpins, maxYields, Math.min(1_000, maxSleepNs), maxSleepNs);
    }

    /** 10k spins, 100 yields, then parks from 1 µs up to 1 ms. */
    public static BackoffIdleStrategy defaults() {
        return new BackoffIdleStrategy(10_000, 100, 1_000, 1_000_000);
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
            sleep.accept(parkNs);
            parkNs = parkNs > maxParkNs >> 1 ? maxParkNs : parkNs << 1;
        }
    }

    @Override
    public void reset() {
        spins = 0;
        yields = 0;
        parkNs = minParkNs;
    }
}
