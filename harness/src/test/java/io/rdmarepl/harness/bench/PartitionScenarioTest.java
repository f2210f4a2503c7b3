package io.rdmarepl.harness.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Issue 21's scenarios as {@code rdmarepl bench partition} numbers them, and what scenario 3's servers need to start. */
class PartitionScenarioTest {

    @Test
    void shouldNumberTheScenariosAsTheIssueDoes() {
        for (int number = 1; number <= 7; number++) {
            assertThat(PartitionScenario.numbered(number)).as("scenario %d", number).isPresent();
        }
        assertThat(PartitionScenario.numbered(8)).isEmpty();
        assertThat(Arrays.stream(PartitionScenario.values()).filter(PartitionScenario::failsOver))
                .containsExactly(PartitionScenario.PRIMARY_CUT_OFF, PartitionScenario.OLD_PRIMARY_RETURNS);
    }

    /**
     * Scenario 3's ZooKeeper servers run on the bench's own classpath: without curator-test's metrics-core every server
     * exited at start ({@code NoClassDefFoundError: com/codahale/metrics/Reservoir}) and every trial failed in 2 s.
     */
    @Test
    void shouldHaveWhatAZooKeeperServerNeedsOnTheClasspath() {
        assertThat(PartitionScenario.MINORITY_COORDINATOR.zooKeeper()).isTrue();
        for (String needed : new String[] {"org.apache.zookeeper.server.quorum.QuorumPeerMain", "com.codahale.metrics.Reservoir"}) {
            assertThatCode(() -> Class.forName(needed, false, getClass().getClassLoader())).as(needed).doesNotThrowAnyException();
        }
    }
}
