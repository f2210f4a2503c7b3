package io.rdmarepl.shipper.lease;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The shipper's own view of its lease: counted from contacts only, an inherited one as it stood. */
class LeaseTest {
    private final AtomicLong nowNs = new AtomicLong(1_000_000_000L);

    /** The lease's clock moves only when the test says so. */
    private void pass(long ms) {
        nowNs.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
    }

    @Test
    void shouldNotCountBeforeTheFirstContactAndRunOutAfterTheLease() throws Exception {
        Lease lease = new Lease(100, nowNs::get);
        assertThat(lease.armed()).isFalse();
        pass(150); // a start longer than the lease: nothing counted yet
        assertThat(lease.expiry()).isNull();
        lease.heard("standby b");
        assertThat(lease.armed()).isTrue();
        assertThat(lease.expiry()).isNull();
        pass(150);
        assertThat(lease.expiry()).startsWith("no word from a standby or the coordinator for ").endsWith("(fence.lease.ms 100, last contact: standby b)");
    }

    @Test
    void shouldCountOnFromAnInheritedContactButLeaveALapseBeforeTheStartToTheGuard() throws Exception {
        long startNs = nowNs.get();
        Lease running = Lease.inherited(100, startNs, "coordinator", nowNs::get);
        assertThat(running.lastContactNs()).as("not renewed by the start").isEqualTo(startNs);
        pass(150);
        assertThat(running.expiry()).as("ran out while this shipper runs").contains("last contact: coordinator (heard by an earlier shipper)");

        Lease lapsed = Lease.inherited(100, nowNs.get() - TimeUnit.SECONDS.toNanos(5), "standby b", nowNs::get);
        assertThat(lapsed.armed()).isTrue();
        assertThat(lapsed.expiry()).as("ran out before this shipper started: the guard's").isNull();
        lapsed.heard("standby b");
        pass(150);
        assertThat(lapsed.expiry()).as("a new lease, this shipper's").isNotNull();
    }

    @Test
    void shouldTellItsListenerOfEveryContactOnTheHearingThread() {
        Lease lease = new Lease(1000);
        List<String> told = new ArrayList<>();
        lease.tell((nowNs, from) -> told.add(from + "@" + (nowNs == lease.lastContactNs())));
        lease.heard("standby b");
        lease.heard("coordinator");
        assertThat(told).containsExactly("standby b@true", "coordinator@true");
    }
}
