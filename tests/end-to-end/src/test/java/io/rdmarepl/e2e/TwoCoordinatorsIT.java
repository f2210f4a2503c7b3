package io.rdmarepl.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.ZooKeeperTestServers;
import io.rdmarepl.testsupport.cluster.CoordinatorHttp;
import io.rdmarepl.testsupport.cluster.RoleProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Two {@code rdmarepl coordinate} processes sharing a ZooKeeper store: the primary's postmaster is killed, and the
 * leading coordinator is killed (SIGKILL) in the middle of the failover it started. The other one takes over the
 * leadership and finishes: one promotion, the epoch rises by exactly one, the replica is the primary.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TwoCoordinatorsIT {
    private static final Logger LOG = LoggerFactory.getLogger(TwoCoordinatorsIT.class);

    private TestingServer zookeeper;
    private Replication replication;

    @BeforeAll
    void startEverything() throws Exception {
        zookeeper = ZooKeeperTestServers.server();
        replication = Replication.create("two-coordinators").coordinated();
        replication.startBoth();
    }

    @AfterAll
    void stopEverything() throws Exception {
        if (replication != null) {
            replication.close();
        }
        if (zookeeper != null) {
            zookeeper.close();
        }
    }

    @Test
    void killingTheLeaderMidFailoverLeavesOnePromotionAndTheOtherFinishes() throws Exception {
        Map<String, String> store = Map.of("state.store", "zookeeper", "zookeeper.connect", zookeeper.getConnectString());
        RoleProcess firstProcess = replication.startCoordinator("coordinator-1", store);
        CoordinatorHttp first = new CoordinatorHttp(replication.adminBase(firstProcess));
        first.awaitPhase("HEALTHY", Duration.ofSeconds(30));
        awaitLeader(first, true);
        CoordinatorHttp second = new CoordinatorHttp(replication.adminBase(replication.startCoordinator("coordinator-2", store)));
        awaitLeader(second, false);
        assertThat(second.status().path("leader").asBoolean()).as("one leader at a time").isFalse();

        ProcessHandle.of(replication.primary().pid()).ifPresent(ProcessHandle::destroyForcibly);
        String killedIn = killWhenFailing(first, firstProcess);

        JsonNode finished = second.awaitPhase("PROMOTED", Duration.ofSeconds(60));
        LOG.info("leader killed in phase {}; the other coordinator finished: {}", killedIn, finished.path("last_decision"));
        assertThat(finished.path("leader").asBoolean()).isTrue();
        JsonNode report = finished.path("last_failover");
        if (report.isObject() && !report.path("fence_confirmed").asBoolean(true)) {
            // it failed over itself (the killed leader had not reached PROMOTING), and the shipper died with its primary:
            // the new leader cannot know what the old one renewed, so it waits out the lease from its takeover
            assertThat(report.path("lease_wait_ms").asLong()).as("%s", report).isGreaterThanOrEqualTo(2000);
        }
        assertThat(finished.path("primary").asText()).isEqualTo("pgb");
        assertThat(finished.path("epoch").asInt()).as("exactly one promotion").isEqualTo(2);
        List<Integer> epochs = new ArrayList<>();
        long promotions = 0;
        for (JsonNode entry : second.history()) {
            epochs.add(entry.path("epoch").asInt());
            promotions += "PROMOTING".equals(entry.path("to").asText()) ? 1 : 0;
        }
        assertThat(epochs).as("the epoch never goes back").isSorted();
        assertThat(promotions).as("one promotion in the history").isEqualTo(1);
        assertThat(Replication.queryLong(replication.replica(), "SELECT CASE WHEN current_setting('transaction_read_only') = 'off' THEN 1 ELSE 0 END"))
                .as("the promoted replica takes writes").isEqualTo(1);
    }

    /**
     * Polls the leader until it is fencing, draining or promoting, then SIGKILLs it; returns the phase it saw. A
     * failover faster than the polling is caught at PROMOTED (logged: the takeover is then tested, not the resume).
     */
    private static String killWhenFailing(CoordinatorHttp leader, RoleProcess process) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            String phase = leader.status().path("phase").asText();
            if (List.of("FENCING", "DRAINING", "PROMOTING", "PROMOTED").contains(phase)) {
                process.kill();
                return phase;
            }
        }
        throw new AssertionError("the leading coordinator did not start a failover within 30 s: " + leader.status());
    }

    private static void awaitLeader(CoordinatorHttp coordinator, boolean leader) {
        Await.until("the coordinator's leader=" + leader, Duration.ofSeconds(30), coordinator::status,
                status -> status.path("leader").asBoolean() == leader);
    }
}
