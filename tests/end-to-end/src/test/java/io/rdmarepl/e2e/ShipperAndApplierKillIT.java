package io.rdmarepl.e2e;

import org.junit.jupiter.api.Test;

/**
 * {@code kill -9} of both processes at once mid-stream, then the applier (a new ring) and the shipper (re-sending
 * from what the standby acknowledged durable) start again; the applier skips what the replica already holds.
 */
class ShipperAndApplierKillIT extends FaultInjectionTest {

    @Test
    void shouldLoseNothingAndApplyNothingTwiceWhenBothProcessesAreKilledAndRestarted() throws Exception {
        replicateThrough(() -> {
            replication.shipper().kill();
            replication.applier().kill();
            replication.startApplier();
            replication.startShipper();
            replication.awaitSlotActive();
        });
    }
}
