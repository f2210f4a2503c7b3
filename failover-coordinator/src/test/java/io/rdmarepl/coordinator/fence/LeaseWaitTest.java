package io.rdmarepl.coordinator.fence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.control.ControlJson;
import io.rdmarepl.control.LeaseAnswer;
import io.rdmarepl.control.LeaseTerms;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The wait before a promotion over an unconfirmed fence: from the last renewal, the shipper's terms, the clock slack. */
class LeaseWaitTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shouldWaitFromTheLastRenewalForTheLeaseItsCheckTheSelfFenceAndTheClockSlack() throws Exception {
        long renewedNs = System.nanoTime();
        LeaseWait wait = LeaseWait.of("pga", answer(2000, 100, 2000), 2000, renewedNs, false);
        assertThat(wait.deadlineNs() - renewedNs).isEqualTo(TimeUnit.MILLISECONDS.toNanos(4100 + 41));
        assertThat(wait.waitMs()).isBetween(4000L, 4141L);
        assertThat(wait.sentence()).startsWith("pga's fence is not confirmed: waiting ").contains("until its lease has certainly run out")
                .contains("fence.lease.ms 2000 + lease check 100 ms + self-fence 2000 ms + 41 ms clock slack");
    }

    @Test
    void shouldTakeTheLongerOfTheShippersLeaseAndThisCoordinators() throws Exception {
        long renewedNs = System.nanoTime();
        assertThat(LeaseWait.of("pga", answer(5000, 100, 2000), 2000, renewedNs, false).deadlineNs() - renewedNs)
                .as("the shipper's, longer").isEqualTo(TimeUnit.MILLISECONDS.toNanos(7100 + 71));
        LeaseWait shorter = LeaseWait.of("pga", answer(1000, 100, 2000), 2000, renewedNs, false);
        assertThat(shorter.deadlineNs() - renewedNs).as("this coordinator's, longer").isEqualTo(TimeUnit.MILLISECONDS.toNanos(4100 + 41));
        assertThat(shorter.sentence()).contains("this coordinator's, longer than the shipper's 1000");
    }

    @Test
    void shouldAssumeThisCoordinatorsLeaseWhenTheShipperWasNotHeardSinceItLeads() {
        long renewedNs = System.nanoTime();
        LeaseWait wait = LeaseWait.of("pga", null, 3000, renewedNs, false);
        assertThat(wait.deadlineNs() - renewedNs).isEqualTo(TimeUnit.MILLISECONDS.toNanos(5100 + 51));
        assertThat(wait.sentence()).contains("fence.lease.ms 3000 assumed");
    }

    @Test
    void shouldNotWaitPastADeadlineAlreadyGone() throws Exception {
        LeaseWait wait = LeaseWait.of("pga", answer(2000, 100, 2000), 2000, System.nanoTime() - TimeUnit.SECONDS.toNanos(10), false);
        assertThat(wait.waitMs()).isZero();
    }

    @Test
    void shouldRefuseWhenNoLeaseCanRunOutUnlessForced() throws Exception {
        assertThatThrownBy(() -> LeaseWait.of("pga", answer(0, 100, 2000), 2000, System.nanoTime(), false))
                .isInstanceOf(FenceException.class)
                .hasMessageContaining("pga's fence is not confirmed and its shipper runs no lease (fence.lease.ms=0)")
                .hasMessageContaining("set fence.lease.ms on its shipper or fence.command here");
        assertThatThrownBy(() -> LeaseWait.of("pga", null, 0, System.nanoTime(), false))
                .hasMessageContaining("fence.lease.ms=0 here says the shippers run no lease");
        LeaseWait forced = LeaseWait.of("pga", answer(0, 100, 2000), 2000, System.nanoTime(), true);
        assertThat(forced.waitMs()).isZero();
        assertThat(forced.sentence()).endsWith("promoting anyway: the operator forced it");
    }

    @Test
    void shouldTakeItsOwnCheckAndSelfFenceWhereTheShipperDoesNotSayThem() throws Exception {
        long renewedNs = System.nanoTime();
        LeaseTerms leaseOnly = ControlJson.read(JSON.readTree("{\"lease_ms\":3000}"), LeaseAnswer.class).terms();
        assertThat(LeaseWait.of("pga", leaseOnly, 2000, renewedNs, false).deadlineNs() - renewedNs)
                .isEqualTo(TimeUnit.MILLISECONDS.toNanos(3000 + LeaseWait.DEFAULT_LEASE_CHECK_MS + LeaseWait.DEFAULT_SELF_FENCE_TIMEOUT_MS + 51));
        LeaseTerms none = ControlJson.read(JSON.readTree("{\"replication_mode\":\"async\"}"), LeaseAnswer.class).terms();
        assertThat(LeaseWait.of("pga", none, 3000, renewedNs, false).sentence()).as("no lease_ms: not heard")
                .contains("fence.lease.ms 3000 assumed");
    }

    /** The terms as the coordinator reads them off a shipper's answer. */
    private static LeaseTerms answer(long leaseMs, long checkMs, long selfFenceMs) throws Exception {
        return ControlJson.read(JSON.readTree("{\"replication_mode\":\"async\",\"acknowledged_lsn\":\"0/3000100\",\"lease_ms\":" + leaseMs
                + ",\"lease_check_ms\":" + checkMs + ",\"self_fence_timeout_ms\":" + selfFenceMs + "}"), LeaseAnswer.class).terms();
    }
}
