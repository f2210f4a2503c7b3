package io.rdmarepl.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.cluster.RoleProcess;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code kill -9} of {@code rdmarepl apply} mid-stream, then a new one. The new applier creates a new ring in place
 * of the old one; the running shipper notices that the ring it writes into was replaced, and exits with code 1
 * (by design: it re-sends from what the standby acknowledged, so it must start again on the new ring); the test
 * restarts it as a supervisor would. The applier skips every re-sent transaction the replica already holds.
 */
class ApplierKillIT extends FaultInjectionTest {
    /** How long the shipper may take to notice the replaced ring. */
    private static final Duration NOTICE_TIMEOUT = Duration.ofSeconds(20);

    @Test
    void shouldLoseNothingAndApplyNothingTwiceWhenTheApplierIsKilledAndRestarted() throws Exception {
        replicateThrough(() -> {
            RoleProcess shipper = replication.shipper();
            long shippedAtKill = shipped(shipper);
            replication.applier().kill();
            // the shipper writes on into the killed applier's ring for a while: nothing may be lost from it
            Await.until("the shipper wrote 10 more transactions into the killed applier's ring", NOTICE_TIMEOUT,
                    () -> shipped(shipper) >= shippedAtKill + 10, replication::tails);
            replication.startApplier();

            OptionalInt exit = shipper.awaitExit(NOTICE_TIMEOUT);
            assertThat(exit)
                    .as("the shipper exits with 1 once it notices the new applier replaced its ring\n%s", replication.tails())
                    .hasValue(1);
            assertThat(shipper.tail()).contains("was replaced or removed by its reader");
            replication.startShipper();
            replication.awaitSlotActive();
        });
    }

    /** The shipper's {@code transactions_shipped}, from its /status. */
    private static long shipped(RoleProcess shipper) {
        Matcher shipped = Pattern.compile("\"transactions_shipped\":(\\d+)").matcher(RoleProcess.statusLine(shipper));
        if (!shipped.find()) {
            throw new IllegalStateException("no transactions_shipped in the shipper's /status: " + RoleProcess.statusLine(shipper));
        }
        return Long.parseLong(shipped.group(1));
    }
}
