package io.rdmarepl.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.testsupport.ZooKeeperEnsemble;
import io.rdmarepl.testsupport.cluster.HostCluster;
import io.rdmarepl.trials.MinorityCoordinatorTrials;
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
 * Issue 21's scenario 3 between real hosts: a minority coordinator partitioned away from the ZooKeeper quorum. Three
 * ZooKeeper servers (the distribution's sample timing: tick 2 s, syncLimit 5) and two coordinators on ZooKeeper, each on
 * a host of its own, beside {@link PartitionIT}'s members a and b (async mode). The leading coordinator is cut off from
 * the quorum while it still sees both members; it must stop acting within half the session timeout of its last contact
 * with the quorum, before the other one acts, and serve no topology a client takes as fresh; the other takes the lead.
 * Judged like every partition trial by the clients' history of acknowledged writes ({@link MinorityCoordinatorTrials}).
 * Skipped with one line where network namespaces are unavailable.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PartitionZooKeeperIT {
    /** Sampling (50 ms), a renewal already on its way (100 ms apart) and the watch's resolution, on a busy 2-core host. */
    private static final long SLACK_MS = 500;
    private static final Logger LOG = LoggerFactory.getLogger(PartitionZooKeeperIT.class);

    private HostCluster cluster;
    private MinorityCoordinatorTrials trials;

    @BeforeAll
    void startCluster() throws Exception {
        cluster = HostCluster.startOnZooKeeper("partition-zookeeper", ZooKeeperEnsemble.Timing.SAMPLE, 2, Map.of(), "");
        trials = new MinorityCoordinatorTrials(cluster);
    }

    @AfterAll
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /**
     * The leader and the ZooKeeper follower it is connected to are cut from the other two servers and the other
     * coordinator. That follower goes on answering its clients until it misses its leader for syncLimit ticks (10 s),
     * while the majority expires the cut-off leader's session after 5 s: the coordinator must not take the follower's
     * word for its leadership.
     */
    @Test
    @Order(1)
    void aLeaderCutOffWithAMinorityServerStopsActingBeforeTheMajorityTakesOver() throws Exception {
        MinorityCoordinatorTrials.Outcome outcome = trials.leaderCut(1, MinorityCoordinatorTrials.Side.MINORITY, false);
        LOG.info("{}", outcome.summary());
        TrialAssertions.assertNothingChanged(outcome.result());
        assertStoppedActingBeforeTheOtherActed(outcome);
        assertThat(outcome.acknowledgedDuringCutBy()).as("the primary took writes all along (nobody fenced it): %s", outcome.summary())
                .isPositive();
    }

    /** Issue 21, hole 5: the leader cut off from every ZooKeeper server. */
    @Test
    @Order(2)
    void aLeaderCutOffFromEveryServerStopsActingBeforeTheMajorityTakesOver() throws Exception {
        MinorityCoordinatorTrials.Outcome outcome = trials.leaderCut(2, MinorityCoordinatorTrials.Side.ALONE, false);
        LOG.info("{}", outcome.summary());
        TrialAssertions.assertNothingChanged(outcome.result());
        assertStoppedActingBeforeTheOtherActed(outcome);
        assertThat(outcome.acknowledgedDuringCutBy()).as("the primary took writes all along (nobody fenced it): %s", outcome.summary())
                .isPositive();
    }

    /**
     * The leader cut off with a minority server as in the first trial, and the primary cut off from the majority's
     * coordinator, then 1 s later from the standby too: only the majority sees it fail, while the old leader still
     * reaches it and would renew its lease. Only the majority's coordinator may fail over (though its probe began failing
     * a second before the standby's silence), and the old primary must refuse writes (its lease ran out) before the
     * standby is promoted; async mode loses what it acknowledged until then.
     */
    @Test
    @Order(3)
    void thePrimaryFailingForTheMajorityDuringTheCutIsFailedOverByTheMajorityAlone() throws Exception {
        MinorityCoordinatorTrials.Outcome outcome = trials.leaderCut(3, MinorityCoordinatorTrials.Side.MINORITY, true);
        LOG.info("{}", outcome.summary());
        TrialAssertions.assertFencedBeforePromotion(outcome.result());
        assertStoppedActingBeforeTheOtherActed(outcome);
    }

    private static void assertStoppedActingBeforeTheOtherActed(MinorityCoordinatorTrials.Outcome outcome) {
        long bound = MinorityCoordinatorTrials.LEADERSHIP_BOUND.toMillis() + SLACK_MS;
        assertThat(outcome.newLeader()).as("the majority's coordinator took the lead: %s", outcome.summary())
                .isNotIn(outcome.oldLeader(), "nobody");
        assertThat(outcome.oldFirstActedMs()).as("the watch saw the old leader act before the cut: %s", outcome.summary())
                .isNotEqualTo(-1).isLessThan(0);
        assertThat(outcome.oldLastActedMs()).as("the old leader's last action (a POST to a role) after the cut: %s", outcome.summary())
                .isLessThanOrEqualTo(bound);
        assertThat(outcome.newFirstActedMs()).as("the new leader acts only after the old one stopped: %s", outcome.summary())
                .isGreaterThan(outcome.oldLastActedMs());
        assertThat(outcome.oldLastFreshMs()).as("the old leader's last topology a client takes as fresh: %s", outcome.summary())
                .isLessThanOrEqualTo(bound);
        assertThat(outcome.bothClaimedMs()).as("never two coordinators saying they lead: %s", outcome.summary()).isZero();
        assertThat(outcome.oldFailedOver()).as("the cut-off coordinator ran no failover: %s", outcome.summary()).isFalse();
    }
}
