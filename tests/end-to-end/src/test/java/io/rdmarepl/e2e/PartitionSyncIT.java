package io.rdmarepl.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link PartitionIT}'s scenarios 5 and 1 in sync mode ({@code replication.mode=sync}, strict: no degrading): a commit
 * returns only once the standby holds it, so nothing acknowledged may be lost at all, whatever the partition.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class PartitionSyncIT {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionSyncIT.class);

    private HostCluster cluster;
    private PartitionTrials trials;

    @BeforeAll
    void startCluster() throws Exception {
        cluster = HostCluster.start("partition-sync", Map.of("replication.mode", "sync"),
                // the test servers run with synchronous_commit off (fast); commits wait for a standby only from 'on' up
                "ALTER DATABASE postgres SET synchronous_commit = on");
        trials = new PartitionTrials(cluster);
    }

    @AfterAll
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void aFlakyLinkSlowsSyncCommitsButChangesNothing() throws Exception {
        TrialResult result = trials.flakyLink(1, 20, Duration.ofMillis(50), Duration.ofSeconds(8));
        LOG.info("{}", result.summary());
        TrialAssertions.assertNothingChanged(result);
    }

    @Test
    @Order(2)
    void thePrimaryCutOffLosesNoAcknowledgedWriteInSyncMode() throws Exception {
        TrialResult result = trials.primaryCutOff(1);
        LOG.info("{}", result.summary());
        TrialAssertions.assertFencedBeforePromotion(result);
        assertThat(result.lostAcknowledged()).as("sync mode: nothing acknowledged lost: %s", result.summary()).isEmpty();
    }

    /**
     * Scenario 4: the standby cut off from the primary during the load, the coordinator still seeing both. The primary
     * is healthy, so no failover; strict sync mode holds every commit while no standby can take it (an acknowledgement
     * then would be one the standby lacks); after the heal the held commits complete and the load goes on, by itself.
     */
    @Test
    @Order(3)
    void theStandbyCutOffFromThePrimaryHoldsCommitsUntilItHeals() throws Exception {
        PartitionTrials.StandbyCut cut = trials.standbyCutFromPrimary(1, Duration.ofSeconds(10));
        TrialResult result = cut.result();
        LOG.info("{}", result.summary());
        TrialAssertions.assertNothingChanged(result);
        assertThat(cut.acknowledgedWhileCut()).as("strict sync: no commit returns while the standby is cut off: %s",
                result.summary()).isZero();
        assertThat(cut.acknowledgedAfterHeal()).as("the load goes on after the heal: %s", result.summary()).isPositive();
    }

    /**
     * Scenario 6: the standby's disk fills (its copy of the table on a small tmpfs), then space is freed. The primary is
     * healthy, so no failover to a standby that could not even write what it received; the applier meets the full disk
     * (else the trial proved nothing), and once there is space again it catches up by itself: nothing acknowledged is
     * lost, replica = primary, HEALTHY.
     */
    @Test
    @Order(4)
    void theStandbysDiskFillsThenHasSpaceAgainAndItCatchesUp() throws Exception {
        PartitionTrials.DiskFull full = trials.standbyDiskFills(1, Duration.ofSeconds(8));
        TrialResult result = full.result();
        LOG.info("{}", result.summary());
        TrialAssertions.assertNothingChanged(result);
        assertThat(full.applierSaw()).as("the standby's applier met the full disk: %s", result.summary())
                .anyMatch(seen -> seen.contains("No space left on device"));
        assertThat(full.acknowledgedAfterFreed()).as("the load goes on once there is space: %s", result.summary()).isPositive();
    }
}
