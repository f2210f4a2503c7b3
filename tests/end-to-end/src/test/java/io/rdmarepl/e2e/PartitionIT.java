package io.rdmarepl.e2e;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 21's partitions between real hosts (network namespaces, {@link HostCluster}), async mode, the example
 * configurations, every role under a supervisor that restarts it as systemd would. Each trial runs on a fresh cluster
 * with a primary and b standby, and is judged by the clients' own history of acknowledged writes
 * ({@link TrialAssertions}): never two primaries, nothing acknowledged before the fault lost, HEALTHY again afterwards
 * with replica = primary. Skipped with one line where network namespaces are unavailable.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class PartitionIT {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionIT.class);

    /** Scenario 1, two trials: a cut off from b and the coordinator while its clients still reach it; healed, rejoined. */
    @Test
    void thePrimaryCutOffFromCoordinatorAndStandbyFencesItselfBeforeTheStandbyIsPromoted() throws Exception {
        for (int trial = 1; trial <= 2; trial++) {
            try (HostCluster cluster = HostCluster.start("partition-1-" + trial, Map.of(), "")) {
                TrialResult result = new PartitionTrials(cluster).primaryCutOff(trial);
                LOG.info("{}", result.summary());
                TrialAssertions.assertFencedBeforePromotion(result);
            }
        }
    }

    /** Scenario 5: 20% loss between shipper and standby (and 50 ms jitter where the kernel has netem), then healed. */
    @Test
    void aFlakyLinkBetweenShipperAndStandbyChangesNothingAndLosesNothing() throws Exception {
        try (HostCluster cluster = HostCluster.start("partition-5", Map.of(), "")) {
            TrialResult result = new PartitionTrials(cluster).flakyLink(1, 20, Duration.ofMillis(50), Duration.ofSeconds(8));
            LOG.info("{}", result.summary());
            TrialAssertions.assertNothingChanged(result);
        }
    }

    /**
     * Scenario 2: the coordinator cut off from the primary only, the standby still hearing it: no failover (the
     * failure rule needs the standbys' silence to cover the probe's failures; it once failed over on the first
     * heartbeat gap of a busy host).
     */
    @Test
    void theCoordinatorCutOffFromThePrimaryOnlyDoesNotFailOver() throws Exception {
        try (HostCluster cluster = HostCluster.start("partition-2-strict", Map.of(), "")) {
            TrialResult result = new PartitionTrials(cluster).coordinatorCutFromPrimary(1, Duration.ofSeconds(5));
            LOG.info("{}", result.summary());
            TrialAssertions.assertNothingChanged(result);
        }
    }

    @Test
    @Disabled("problem found by scenario 1 run twice on one cluster: the old primary's shipper, stopped by the partition and "
            + "restarted by its supervisor (activation=immediate), is still starting when `rdmarepl rejoin` retires it, so "
            + "the rejoin goes on with 'drop its replication slot by hand'; once the partition heals the restarted shipper "
            + "streams its old slot again, and the failback's `rdmarepl rejoin` answers 409 (the follower's applier is "
            + "'already following', the old shipper will not activate) and leaves the member FENCED for good")
    void aSecondCutOfTheNewPrimaryFailsBackAndRejoins() throws Exception {
        try (HostCluster cluster = HostCluster.start("partition-1-back", Map.of(), "")) {
            PartitionTrials trials = new PartitionTrials(cluster);
            for (int trial = 1; trial <= 2; trial++) {
                TrialResult result = trials.primaryCutOff(trial);
                LOG.info("{}", result.summary());
                TrialAssertions.assertFencedBeforePromotion(result);
            }
        }
    }
}
