package io.rdmarepl.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The waits every test relies on fail, and say what they waited for, when the condition does not come. */
@Timeout(30)
class AwaitTest {
    @Test
    void shouldReturnOnceTheConditionHolds() {
        AtomicInteger polls = new AtomicInteger();
        long ms = Await.until("the third poll", Duration.ofSeconds(5), () -> polls.incrementAndGet() >= 3);
        assertThat(polls.get()).isEqualTo(3);
        assertThat(ms).isLessThan(1_000);
    }

    @Test
    void shouldFailAtTheDeadlineNamingWhatWasAwaitedAndWhatWasSeen() {
        long startNs = System.nanoTime();
        assertThatThrownBy(() -> Await.until("the replica holds 3 rows", Duration.ofMillis(200), () -> false, () -> "2 rows"))
                .isInstanceOf(AssertionError.class)
                .hasMessage("expected the replica holds 3 rows within 200 ms; seen: 2 rows");
        assertThat(Duration.ofNanos(System.nanoTime() - startNs)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
    }

    @Test
    void shouldTakeAThrowingConditionForNotYetAndReportTheLastError() {
        AtomicInteger polls = new AtomicInteger();
        Await.until("a server answering on the third try", Duration.ofSeconds(5), () -> {
            if (polls.incrementAndGet() < 3) {
                throw new IOException("connection refused");
            }
            return true;
        });
        assertThat(polls.get()).isEqualTo(3);

        assertThatThrownBy(() -> Await.until("a server that never answers", Duration.ofMillis(50), () -> {
            throw new IOException("connection refused");
        })).isInstanceOf(AssertionError.class).hasMessageContaining("last error: java.io.IOException: connection refused")
                .hasCauseInstanceOf(IOException.class);
    }

    @Test
    void shouldEndTheWaitAtOnceWhenTheConditionFailsAnAssertion() {
        AtomicInteger polls = new AtomicInteger();
        assertThatThrownBy(() -> Await.until("never", Duration.ofSeconds(10), () -> {
            polls.incrementAndGet();
            throw new AssertionError("the shipper failed");
        })).isInstanceOf(AssertionError.class).hasMessage("the shipper failed");
        assertThat(polls.get()).isEqualTo(1);
    }

    @Test
    void shouldFailAProbeWithItsLastValue() {
        assertThatThrownBy(() -> Await.equalTo("the epoch", Duration.ofMillis(50), () -> 1, 2))
                .isInstanceOf(AssertionError.class).hasMessage("expected the epoch is 2 within 50 ms; last value: 1");
    }

    @Test
    void shouldHoldForTheWholeWindowAndFailAtTheFirstBreach() {
        long startNs = System.nanoTime();
        Await.holds("nothing happens", Duration.ofMillis(100), () -> true);
        assertThat(Duration.ofNanos(System.nanoTime() - startNs)).isGreaterThanOrEqualTo(Duration.ofMillis(100));

        AtomicInteger polls = new AtomicInteger();
        assertThatThrownBy(() -> Await.holds("no failover", Duration.ofSeconds(10), () -> polls.incrementAndGet() < 3))
                .isInstanceOf(AssertionError.class).hasMessageStartingWith("expected no failover for 10000 ms, but not after ");
        assertThat(polls.get()).as("stopped at the first breach, not at the window's end").isEqualTo(3);
    }

    @Test
    void shouldFailAWaitOfAnInterruptedThreadAndKeepItsFlag() {
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> Await.until("never", Duration.ofSeconds(10), () -> false))
                    .isInstanceOf(AssertionError.class).hasMessage("interrupted while waiting for never");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }
}
