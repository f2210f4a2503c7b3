package io.rdmarepl.e2e;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link ShipperKillIT} on the native engine ({@code capture.engine=pgoutput}): {@code kill -9} of the shipper in the
 * middle of the workload, a new one streams from the slot's confirmed position, and the applier skips what it
 * already applied. Replica = primary at the end.
 */
class PgOutputShipperKillIT extends FaultInjectionTest {
    @BeforeAll
    void useTheNativeEngine() throws Exception {
        replication.shipperSetting("capture.engine", "pgoutput");
    }

    @Test
    void shouldLoseNothingAndApplyNothingTwiceWhenTheShipperIsKilledAndRestarted() throws Exception {
        replicateThrough(() -> {
            replication.shipper().kill();
            replication.startShipper();
            replication.awaitSlotActive();
        });
    }
}
