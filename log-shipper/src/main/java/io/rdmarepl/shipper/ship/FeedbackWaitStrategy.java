package io.rdmarepl.shipper.ship;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.TimeoutException;
import com.lmax.disruptor.WaitStrategy;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * How a standby handler waits for the next record. Normally it blocks for up to the heartbeat interval; on the
 * timeout it sends a heartbeat and reads the standby's feedback. While the capture thread waits for the standbys to
 * acknowledge a batch (sync mode) it returns after {@value #FEEDBACK_POLL_US} µs instead, so the feedback is read
 * as soon as the standby writes it: otherwise every synchronous commit would wait for the next heartbeat too (half
 * the interval on average). Starting that wait wakes a handler already blocked ({@link #signalAllWhenBlocking}).
 * Disruptor's own timeout strategies cannot be woken that way: a signal without a new record sends them back to sleep.
 */
final class FeedbackWaitStrategy implements WaitStrategy {
    static final long FEEDBACK_POLL_US = 20;

    private final long heartbeatIntervalNs;
    private final BooleanSupplier acknowledgementAwaited;
    private final Object mutex = new Object();
    private final AtomicBoolean signalNeeded = new AtomicBoolean();
    private boolean handlersSleepOnDoorbells;
    private Runnable wakeSleepers = () -> { };

    /** @param acknowledgementAwaited true while the capture thread waits for the standbys' acknowledgement */
    FeedbackWaitStrategy(long heartbeatIntervalNs, BooleanSupplier acknowledgementAwaited) {
        this.heartbeatIntervalNs = heartbeatIntervalNs;
        this.acknowledgementAwaited = acknowledgementAwaited;
    }

    @Override
    public long waitFor(long sequence, Sequence cursor, Sequence dependentSequence, SequenceBarrier barrier)
            throws AlertException, InterruptedException, TimeoutException {
        long available = dependentSequence.get();
        if (available >= sequence) {
            return available;
        }
        if (!acknowledgementAwaited.getAsBoolean()) {
            blockUntilPublishedOrAwaited(sequence, cursor, barrier);
            available = dependentSequence.get();
            if (available >= sequence) {
                return available;
            }
        }
        barrier.checkAlert();
        if (handlersSleepOnDoorbells) {
            throw TimeoutException.INSTANCE; // the handler's onTimeout sleeps on its ring's doorbell until feedback
        }
        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(FEEDBACK_POLL_US));
        available = dependentSequence.get();
        if (available < sequence) {
            throw TimeoutException.INSTANCE; // the handler's onTimeout reads the feedback, then waits again
        }
        return available;
    }

    /**
     * Until a record is published, an acknowledgement is awaited or the heartbeat interval passed (then
     * {@link TimeoutException}). The flag is set under the mutex before the condition is checked, so a signal
     * between the check and the wait is never lost.
     */
    private void blockUntilPublishedOrAwaited(long sequence, Sequence cursor, SequenceBarrier barrier)
            throws AlertException, InterruptedException, TimeoutException {
        long deadlineNs = System.nanoTime() + heartbeatIntervalNs;
        synchronized (mutex) {
            while (true) {
                signalNeeded.set(true);
                if (cursor.get() >= sequence || acknowledgementAwaited.getAsBoolean()) {
                    return;
                }
                barrier.checkAlert();
                long remainingNs = deadlineNs - System.nanoTime();
                if (remainingNs <= 0) {
                    throw TimeoutException.INSTANCE;
                }
                TimeUnit.NANOSECONDS.timedWait(mutex, remainingNs);
            }
        }
    }

    /**
     * Every handler's ring has a doorbell its reader rings with each feedback: while an acknowledgement is awaited,
     * a handler then sleeps on it ({@link StandbyShipper#onTimeout}) instead of polling every {@value #FEEDBACK_POLL_US}
     * µs, a period the kernel's timer slack stretches to about 100 µs. Set before the Disruptor starts.
     *
     * @param wakeSleepers wakes the handlers asleep on their doorbells, for a record published meanwhile
     */
    void handlersSleepOnDoorbells(Runnable wakeSleepers) {
        this.handlersSleepOnDoorbells = true;
        this.wakeSleepers = wakeSleepers;
    }

    /** A record was published, or an acknowledgement is now awaited: wake a blocked handler. */
    @Override
    public void signalAllWhenBlocking() {
        if (signalNeeded.getAndSet(false)) {
            synchronized (mutex) {
                mutex.notifyAll();
            }
        }
        if (handlersSleepOnDoorbells) {
            // the cursor was stored before this call: fenced, a handler about to sleep sees it or is seen asleep
            java.lang.invoke.VarHandle.fullFence();
            wakeSleepers.run();
        }
    }
}
