package io.rdmarepl.e2e;

import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The whole path over {@code softrdma://} (the verbs code path over the software RDMA provider,
 * with the shared-secret handshake): {@code kill -9} of the shipper mid-stream, then a new one that
 * connects again and re-sends what was not acknowledged. Replica = primary at the end.
 */
class ShipperKillOverSoftRdmaIT extends FaultInjectionTest {

    @Override
    @BeforeAll
    void startServers() throws Exception {
        replication = Replication.create(getClass().getSimpleName().toLowerCase(Locale.ROOT), "softrdma");
    }

    @Test
    void shouldLoseNothingAndApplyNothingTwiceOverSoftRdma() throws Exception {
        replicateThrough(() -> {
            replication.shipper().kill();
            replication.startShipper();
            replication.awaitSlotActive();
        });
    }
}
