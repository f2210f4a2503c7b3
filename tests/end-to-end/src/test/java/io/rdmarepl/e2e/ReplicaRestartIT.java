package io.rdmarepl.e2e;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The replica PostgreSQL server stops (fast shutdown: the applier's sessions are cut) and starts again on the same
 * data directory two seconds later, mid-stream; the shipper and the applier keep running: the applier retries the
 * group it was applying (connection errors are retried), the ring holds what arrives meanwhile.
 */
class ReplicaRestartIT extends FaultInjectionTest {

    @Test
    void shouldLoseNothingAndApplyNothingTwiceWhenTheReplicaServerRestarts() throws Exception {
        replicateThrough(() -> {
            replication.replica().restart(Duration.ofSeconds(2));
            replication.checkAlive();
        });
    }
}
