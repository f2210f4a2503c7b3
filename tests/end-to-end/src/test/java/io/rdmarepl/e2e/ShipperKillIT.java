package io.rdmarepl.e2e;

import org.junit.jupiter.api.Test;

/**
 * {@code kill -9} of {@code rdmarepl ship} mid-stream, then a new one: it attaches to the applier's ring where the
 * killed one stopped writing (a transaction cut short is discarded by the applier), re-sends from the offsets the
 * standby acknowledged durable, and the applier skips what it already applied.
 */
class ShipperKillIT extends FaultInjectionTest {

    @Test
    void shouldLoseNothingAndApplyNothingTwiceWhenTheShipperIsKilledAndRestarted() throws Exception {
        replicateThrough(() -> {
            replication.shipper().kill();
            replication.startShipper();
            replication.awaitSlotActive();
        });
    }
}
