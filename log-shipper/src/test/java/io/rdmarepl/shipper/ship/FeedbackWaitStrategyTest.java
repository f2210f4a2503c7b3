package io.rdmarepl.shipper.ship;

import static org.assertj.core.api.Assertions.assertThat;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.TimeoutException;
import io.rdmarepl.testsupport.Await;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The standby handlers' wait, through a real Disruptor ring buffer and barrier. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FeedbackWaitStrategyTest {
    private static final long HEARTBEAT_NS = TimeUnit.SECONDS.toNanos(20);

    private final AtomicBoolean awaited = new AtomicBoolean();
    private final FeedbackWaitStrategy strategy = new FeedbackWaitStrategy(HEARTBEAT_NS, awaited::get);
    private final RingBuffer<long[]> ring = RingBuffer.createSingleProducer(() -> new long[1], 8, strategy);
    private final SequenceBarrier barrier = ring.newBarrier();

    @Test
    void shouldLeaveAHandlerBlockedUntilTheHeartbeatAsSoonAsAnAcknowledgementIsAwaited() throws Exception {
        CompletableFuture<String> waiting = blockedHandler(); // for up to the 20 s heartbeat interval
        assertThat(waiting).isNotDone();

        awaited.set(true);
        strategy.signalAllWhenBlocking();

        // the handler comes back to read the feedback (onTimeout), long before its heartbeat
        assertThat(waiting.get(10, TimeUnit.SECONDS)).isEqualTo("timeout");
    }

    @Test
    void shouldReturnAtOnceWhileAnAcknowledgementIsAwaited() throws Exception {
        awaited.set(true);
        for (int i = 0; i < 100; i++) {
            assertThat(waitForFirstRecord()).isEqualTo("timeout");
        }
    }

    @Test
    void shouldWakeABlockedHandlerForAPublishedRecord() throws Exception {
        CompletableFuture<String> waiting = blockedHandler();
        ring.publish(ring.next());
        assertThat(waiting.get(10, TimeUnit.SECONDS)).isEqualTo("available 0");
    }

    /** A handler waiting for the first record on a thread of its own, once it is blocked in the strategy. */
    private CompletableFuture<String> blockedHandler() {
        CompletableFuture<String> waiting = new CompletableFuture<>();
        Thread handler = new Thread(() -> waiting.complete(waitForFirstRecord()), "standby-handler");
        handler.setDaemon(true);
        handler.start();
        // the strategy's only timed wait is the block on its mutex (no acknowledgement is awaited yet)
        Await.until("the handler blocked in the strategy, or returned", Duration.ofSeconds(10),
                () -> handler.getState() == Thread.State.TIMED_WAITING || waiting.isDone());
        return waiting;
    }

    private String waitForFirstRecord() {
        try {
            return "available " + barrier.waitFor(0);
        } catch (TimeoutException e) {
            return "timeout";
        } catch (Exception e) {
            return e.toString();
        }
    }
}
