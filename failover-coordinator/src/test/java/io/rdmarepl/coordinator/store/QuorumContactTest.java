package io.rdmarepl.coordinator.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Leadership counts for half a session timeout after the quorum's last answer, counted from when it was asked. */
class QuorumContactTest {
    private final AtomicLong nowNs = new AtomicLong(5_000_000_000L);
    private final QuorumContact contact = new QuorumContact(2500, nowNs::get);

    @Test
    void shouldCountNothingBeforeTheFirstAnswer() {
        assertThat(contact.recent()).isFalse();
        assertThat(contact.silentMs()).isEqualTo(-1);
        assertThat(contact.lastNs(42)).isEqualTo(42);
    }

    @Test
    void shouldCountFromWhenTheAnsweredSyncWasSentNotFromTheAnswer() {
        long sentNs = nowNs.get();
        elapseMs(900); // the answer took 900 ms: the quorum was there when it was asked, not necessarily since
        contact.answered(sentNs);

        elapseMs(1599);
        assertThat(contact.recent()).as("2499 ms after the question").isTrue();
        elapseMs(1);
        assertThat(contact.recent()).as("2500 ms after the question").isFalse();
        assertThat(contact.silentMs()).isEqualTo(2500);
        assertThat(contact.lastNs(0)).isEqualTo(sentNs);
    }

    @Test
    void shouldNotMoveBackForALateAnswerToAnOlderQuestion() {
        long olderNs = nowNs.get();
        elapseMs(250);
        long newerNs = nowNs.get();
        contact.answered(newerNs);
        contact.answered(olderNs);

        assertThat(contact.lastNs(0)).isEqualTo(newerNs);
    }

    @Test
    void shouldShrinkTheWindowToHalfASessionTheServerGrantedShorter() {
        contact.limitTo(4000);
        assertThat(contact.windowMs()).isEqualTo(2000);
        contact.limitTo(40_000);
        assertThat(contact.windowMs()).as("a longer session never widens it").isEqualTo(2000);
        assertThat(TimeUnit.NANOSECONDS.toMillis(contact.intervalNs())).as("asked ten times a window").isEqualTo(200);
    }

    private void elapseMs(long ms) {
        nowNs.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
    }
}
