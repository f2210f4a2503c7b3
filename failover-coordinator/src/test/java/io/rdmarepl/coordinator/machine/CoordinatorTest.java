package io.rdmarepl.coordinator.machine;

import static io.rdmarepl.coordinator.machine.CoordinatorWorld.TIMEOUT;
import static io.rdmarepl.coordinator.machine.CoordinatorWorld.applier;
import static io.rdmarepl.coordinator.machine.CoordinatorWorld.shipper;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.coordinator.state.ClusterState;
import io.rdmarepl.coordinator.state.Phase;
import io.rdmarepl.coordinator.state.Role;
import io.rdmarepl.testsupport.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The failover state machine, every transition and every refusal, against fakes of what it acts through (the roles,
 * the fencer, the detector, the store, the clock), in the manner of Patroni's HA tests: set up the world, let the
 * coordinator decide, check the phase it reached, the history it wrote and what it asked of the roles. Every wait is
 * for a condition, with a deadline; a wait the failover must make (an old primary's lease) is skipped by the clock.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CoordinatorTest {
    private static final String PROMOTE_TO_EPOCH_2 = "{\"epoch\":2}";

    private CoordinatorWorld world;

    @AfterEach
    void stop() {
        if (world != null) {
            world.close();
        }
    }

    // --- the cycle: initialise, suspect, recover, fail over ---

    @Test
    void shouldInitialiseAnEmptyStoreWithTheInitialPrimaryAtEpochOne() {
        world = CoordinatorWorld.empty();
        world.start();

        ClusterState state = world.awaitPhase(Phase.HEALTHY);
        assertThat(state.epoch()).isEqualTo(1);
        assertThat(state.primary()).isEqualTo("a");
        assertThat(world.role("b")).isEqualTo(Role.STANDBY);
        assertThat(world.transitions()).containsExactly("uninitialised -> HEALTHY");
        Await.until("the detector probes a", TIMEOUT, world.detector::probed, CoordinatorWorld.jdbcUrl("a")::equals);
    }

    @Test
    void shouldSuspectAFailedPrimaryAndReturnToHealthyWhenItRecovers() {
        world = CoordinatorWorld.manual();
        world.start();
        world.awaitPhase(Phase.HEALTHY);

        world.detector.primaryFailed();
        world.awaitPhase(Phase.SUSPECT);
        world.detector.primaryHealthy();
        world.awaitPhase(Phase.HEALTHY);

        assertThat(world.transitions()).containsExactly("uninitialised -> HEALTHY", "HEALTHY -> SUSPECT", "SUSPECT -> HEALTHY");
        assertThat(world.reasonFor(Phase.HEALTHY)).startsWith("recovered: primary healthy");
        assertThat(world.fencer.calls()).as("nothing fenced without a failover").isEmpty();
    }

    @Test
    void shouldFailOverToTheMostAdvancedStandbyWhenThePrimaryFails() {
        world = CoordinatorWorld.empty();
        Coordinator coordinator = world.start();
        world.awaitPhase(Phase.HEALTHY);

        world.detector.primaryFailed();
        ClusterState promoted = world.awaitPhase(Phase.PROMOTED);

        assertThat(world.transitions()).containsExactly("uninitialised -> HEALTHY", "HEALTHY -> SUSPECT", "SUSPECT -> FENCING",
                "FENCING -> DRAINING", "DRAINING -> PROMOTING", "PROMOTING -> PROMOTED");
        assertThat(promoted.epoch()).isEqualTo(2);
        assertThat(promoted.primary()).as("b applied the most").isEqualTo("b");
        assertThat(world.role("a")).isEqualTo(Role.FENCED);
        assertThat(world.fencer.calls()).containsExactly("fence a");
        assertThat(world.roles.posted(applier("b"), "/drain")).hasSize(1);
        assertThat(world.roles.posted(applier("b"), "/promote")).containsExactly(PROMOTE_TO_EPOCH_2);
        assertThat(world.roles.posted(applier("c"), "/promote")).isEmpty();
        Await.until("the detector probes b", TIMEOUT, world.detector::probed, CoordinatorWorld.jdbcUrl("b")::equals);
        @SuppressWarnings("unchecked")
        Map<String, Object> report = (Map<String, Object>) coordinator.status().get("last_failover");
        assertThat(report).containsEntry("new_primary", "b").containsEntry("epoch", 2).containsEntry("fence_confirmed", true)
                .containsEntry("applied_lsn", "0/4000");
    }

    @Test
    void shouldHoldTheWatchOfTheOldPrimaryFromItsFenceUntilTheNewPrimaryIsNamed() {
        world = CoordinatorWorld.empty();
        AtomicBoolean heldAtDrain = new AtomicBoolean();
        world.roles.on("POST", applier("b"), "/drain", body -> {
            heldAtDrain.set(world.detector.held());
            return FakeRoles.json("{\"applied_lsn\":\"0/4000\"}");
        });
        world.start();
        world.awaitPhase(Phase.HEALTHY);
        assertThat(world.detector.held()).as("a healthy primary is watched").isFalse();

        world.detector.primaryFailed();
        world.awaitPhase(Phase.PROMOTED);

        assertThat(heldAtDrain).as("held while b drains").isTrue();
        Await.until("the watch resumes, on the new primary", TIMEOUT, () -> !world.detector.held()
                && CoordinatorWorld.jdbcUrl("b").equals(world.detector.probed()), ok -> ok);
        assertThat(world.detector.holds()).isEqualTo(1);
        assertThat(world.detector.exitAskedWhileHeld()).as("the fence read the postmaster's exit before the hold").isFalse();
    }

    @Test
    void shouldStayPromotedWithoutWatchingTheFencedPrimary() {
        world = CoordinatorWorld.empty();
        world.start();
        world.awaitPhase(Phase.HEALTHY);
        world.detector.primaryFailed();
        world.awaitPhase(Phase.PROMOTED);

        Await.until("the coordinator says no standby follows b", TIMEOUT, world::lastDecision,
                d -> d.equals("b is primary at epoch 2; no standby follows it until the old primary rejoins"));
        assertThat(world.phase()).isEqualTo(Phase.PROMOTED);
    }

    // --- refusals before anything changes ---

    @Test
    void shouldRefuseAFailoverWhileThePrimaryIsHealthy() {
        world = CoordinatorWorld.manual();
        Coordinator coordinator = world.start();
        world.awaitPhase(Phase.HEALTHY);

        assertThatThrownBy(() -> coordinator.failover(null, false)).isInstanceOf(Refused.class)
                .hasMessageStartingWith("primary a has not failed (primary healthy (fake detector))")
                .hasMessageEndingWith("use `rdmarepl failover --force` to fail over anyway");
        assertThat(world.phase()).isEqualTo(Phase.HEALTHY);
        assertThat(world.fencer.calls()).isEmpty();
    }

    @Test
    void shouldRefuseEveryCommandAndOnlyFollowWhenAnotherCoordinatorLeads() {
        world = CoordinatorWorld.manual();
        Coordinator coordinator = world.start();
        world.awaitPhase(Phase.HEALTHY);

        world.store.leader(false);
        Await.until("the coordinator follows", TIMEOUT, world::lastDecision, "following: another coordinator leads"::equals);
        world.detector.primaryFailed();

        for (var command : List.<java.util.concurrent.Callable<?>>of(() -> coordinator.failover(null, true),
                () -> coordinator.promote("b"), () -> coordinator.switchover("b"), () -> coordinator.fence("a"),
                () -> coordinator.rejoin("a"))) {
            assertThatThrownBy(command::call).isInstanceOf(Refused.class)
                    .hasMessageStartingWith("this coordinator (").hasMessageContaining("is not the leader; ask the leader (fake store)");
        }
        assertThat(world.phase()).as("a follower writes nothing, whatever it sees").isEqualTo(Phase.HEALTHY);
        assertThat(world.fencer.calls()).isEmpty();
    }

    @Test
    void shouldServeAFollowersTopologyAsOldAsItsStoresLastWordWithTheCluster() throws Exception {
        world = CoordinatorWorld.manual();
        Coordinator coordinator = world.start();
        world.awaitPhase(Phase.HEALTHY);

        // the leader's ZooKeeper server loses its quorum; reads still answer, with what the server had
        long silentSinceNs = world.store.hearsTheClusterNoMore();
        world.store.leader(false);
        long readsBefore = world.store.reads();
        Await.until("the follower re-reads the store five times", TIMEOUT, () -> world.store.reads() >= readsBefore + 5);

        long sinceMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - silentSinceNs);
        Map<String, Object> topology = coordinator.topology().await(-1, 0);
        assertThat(topology).containsEntry("leader", false);
        assertThat((Long) topology.get("age_ms")).as("%d ms after its store heard the cluster last, with re-reads every 100 ms "
                + "the quorum did not answer", sinceMs).isGreaterThanOrEqualTo(sinceMs);

        world.store.hearsTheCluster();
        Await.until("fresh again once the quorum answers", TIMEOUT,
                () -> (Long) coordinator.topology().await(-1, 0).get("age_ms") < 300L);
    }

    @Test
    void shouldRefuseAFailoverWhenNoStandbyCanBePromoted() {
        world = CoordinatorWorld.manual();
        Coordinator coordinator = world.start();
        world.awaitPhase(Phase.HEALTHY);
        world.standbys.values().forEach(FakeStandby::unreachable);

        assertThatThrownBy(() -> coordinator.failover(null, true)).isInstanceOf(Refused.class)
                .hasMessage("no standby can be promoted: b's applier is unreachable (connection refused); "
                        + "c's applier is unreachable (connection refused)");
        assertThat(world.phase()).as("refused before fencing").isEqualTo(Phase.HEALTHY);
        assertThat(world.fencer.calls()).isEmpty();
    }

    @Test
    void shouldPromoteANamedStandbyThatAnswersSlowerThanTheWatchWaits() throws Exception {
        world = CoordinatorWorld.manual();
        Coordinator coordinator = world.start();
        world.awaitPhase(Phase.HEALTHY);
        world.standbys.values().forEach(FakeStandby::slow);

        assertThatThrownBy(() -> coordinator.failover(null, true)).as("not named: the watch's view decides")
                .isInstanceOf(Refused.class).hasMessageStartingWith("no standby can be promoted: b's applier is unreachable");
        coordinator.failover("b", true);
        assertThat(world.awaitPhase(Phase.PROMOTED).primary()).isEqualTo("b");
    }

    @Test
    void shouldRefuseToPromoteAMemberThatIsNotAStandby() {
        world = CoordinatorWorld.manual();
        Coordinator coordinator = world.start();
        world.awaitPhase(Phase.HEALTHY);

        assertThatThrownBy(() -> coordinator.promote("a")).isInstanceOf(Refused.class).hasMessage("a is PRIMARY, not a standby");
        assertThatThrownBy(() -> coordinator.promote("z")).isInstanceOf(Refused.class).hasMessage("no member named z");
        assertThat(world.fencer.calls()).isEmpty();
    }

    // --- a failover that stops on the way: back to SUSPECT, nothing promoted ---

    @Test
    void shouldReturnToSuspectWhenTheOldPrimaryCannotBeFenced() throws Exception {
        world = CoordinatorWorld.manual();
        Coordinator coordinator = world.start();
        world.awaitPhase(Phase.HEALTHY);
        world.detector.primaryFailed();
        world.awaitPhase(Phase.SUSPECT);
        world.fencer.failing("fence.command for a exited 1: not promoting");

        assertThatThrownBy(() -> coordinator.failover(null, false)).isInstanceOf(Refused.class)
                .hasMessage("fence.command for a exited 1: not promoting");
        assertThat(world.transitions()).endsWith("SUSPECT -> FENCING", "FENCING -> SUSPECT");
        assertThat(world.store.state().epoch()).isEqualTo(1);
        assertThat(world.roles.posted(applier("b"), "/drain")).as("no standby drained").isEmpty();
    }

    @Test
    void shouldReturnToSuspectWhenTheStandbyCannotDrain() {
        world = CoordinatorWorld.manual();
        Coordinator coordinator = world.start();
        world.awaitPhase(Phase.HEALTHY);
        world.detector.primaryFailed();
        world.awaitPhase(Phase.SUSPECT);
        world.roles.on("POST", applier("b"), "/drain", FakeRoles.refusing("POST http://b.applier:7401/drain answered 409: paused"));

        assertThatThrownBy(() -> coordinator.failover("b", false)).isInstanceOf(Refused.class)
                .hasMessage("draining b failed: POST http://b.applier:7401/drain answered 409: paused");
        assertThat(world.transitions()).endsWith("SUSPECT -> FENCING", "FENCING -> DRAINING", "DRAINING -> SUSPECT");
        assertThat(world.roles.posted(applier("b"), "/promote")).isEmpty();
        assertThat(world.detector.holds()).as("held from the fence on").isEqualTo(1);
        assertThat(world.detector.held()).as("the old primary is watched again after the refusal").isFalse();
    }

    @Test
    void shouldRefuseToPromoteAStandbyMissingCommitsAcknowledgedInSyncMode() {
        world = CoordinatorWorld.manual();
        world.roles.on("POST", shipper("a"), "/lease", FakeRoles.answering("{\"replication_mode\":\"sync\",\"sync_state\":\"sync\","
                + "\"acknowledged_lsn\":\"0/9000\",\"lease_ms\":2000,\"lease_check_ms\":100,\"self_fence_timeout_ms\":2000}"));
        Coordinator coordinator = world.start();
        world.awaitPhase(Phase.HEALTHY);
        Await.until("the shipper's sync promise is heard", TIMEOUT, () -> coordinator.status().get("replication"),
                r -> r instanceof Map<?, ?> m && "sync".equals(m.get("mode")));
        world.detector.primaryFailed();
        world.awaitPhase(Phase.SUSPECT);

        assertThatThrownBy(() -> coordinator.failover(null, false)).isInstanceOf(Refused.class)
                .hasMessageStartingWith("b applied only up to 0/4000 but the shipper had acknowledged commits up to 0/9000 (sync mode)");
        assertThat(world.transitions()).endsWith("FENCING -> DRAINING", "DRAINING -> SUSPECT");
        assertThat(world.reasonFor(Phase.SUSPECT)).contains("promoting it would lose acknowledged transactions");
        assertThat(world.store.state().epoch()).isEqualTo(1);
        assertThat(world.roles.posted(applier("b"), "/promote")).isEmpty();
    }

    // --- a fence nothing confirmed: the old primary's lease must run out first ---

    @Test
    void shouldWaitOutTheOldPrimarysLeaseBeforePromotingOverAnUnconfirmedFence() {
        world = CoordinatorWorld.empty();
        world.fencer.unconfirmed();
        Coordinator coordinator = world.start();
        world.awaitPhase(Phase.HEALTHY);
        world.detector.primaryFailed();
        world.awaitPhase(Phase.PROMOTED);

        @SuppressWarnings("unchecked")
        Map<String, Object> report = (Map<String, Object>) coordinator.status().get("last_failover");
        assertThat(report).containsEntry("fence_confirmed", false);
        // lease 2000 + check 100 + self-fence 2000 ms, plus 1% slack, from the last renewal
        assertThat((Long) report.get("lease_wait_ms")).isGreaterThanOrEqualTo(4000);
        assertThat(world.clock.skippedNs()).isGreaterThanOrEqualTo(Duration.ofMillis(4000).toNanos());
        assertThat(world.roles.posted(applier("c"), "/drain")).as("c stops renewing a's lease too").hasSize(1);
        assertThat(world.store.state().history()).anyMatch(h -> h.reason().startsWith("a's fence is not confirmed: waiting ")
                && h.reason().contains("until its lease has certainly run out"));
    }

    @Test
    void shouldRefuseAnUnconfirmedFenceWhileAnotherStandbyMayStillRenewTheLease() {
        world = CoordinatorWorld.manual();
        world.fencer.unconfirmed();
        world.roles.on("POST", applier("c"), "/drain", FakeRoles.refusing("POST http://c.applier:7401/drain unreachable"));
        Coordinator coordinator = world.start();
        world.awaitPhase(Phase.HEALTHY);
        world.detector.primaryFailed();
        world.awaitPhase(Phase.SUSPECT);

        assertThatThrownBy(() -> coordinator.failover(null, false)).isInstanceOf(Refused.class)
                .hasMessageStartingWith("c may still renew a's lease: its applier did not take the drain");
        assertThat(world.phase()).isEqualTo(Phase.SUSPECT);
        assertThat(world.roles.posted(applier("b"), "/promote")).isEmpty();
    }

    // --- a failed promotion, a lost leadership, a standby that answers late ---

    @Test
    void shouldKeepRetryingAPromotionWhoseApplierDidNotAnswer() {
        world = CoordinatorWorld.manual();
        world.roles.on("POST", applier("b"), "/promote", FakeRoles.refusing("POST http://b.applier:7401/promote: no answer within 30000 ms"));
        Coordinator coordinator = world.start();
        world.awaitPhase(Phase.HEALTHY);
        world.detector.primaryFailed();
        world.awaitPhase(Phase.SUSPECT);

        assertThatThrownBy(() -> coordinator.failover(null, false)).isInstanceOf(Refused.class)
                .hasMessage("epoch 2 is published but b's applier did not promote yet (POST http://b.applier:7401/promote: "
                        + "no answer within 30000 ms); the coordinator keeps retrying");
        ClusterState promoting = world.store.state();
        assertThat(promoting.phase()).as("the epoch is bumped before the applier is asked").isEqualTo(Phase.PROMOTING);
        assertThat(promoting.epoch()).isEqualTo(2);
        assertThat(promoting.primary()).isEqualTo("b");
        Await.until("the promotion is retried", TIMEOUT, () -> world.roles.posted(applier("b"), "/promote").size(), n -> n >= 2);

        world.roles.on("POST", applier("b"), "/promote", FakeRoles.answering("{\"state\":\"promoted\",\"applied_lsn\":\"0/4000\",\"sequences\":{}}"));
        world.awaitPhase(Phase.PROMOTED);
        assertThat(world.reasonFor(Phase.PROMOTED)).isEqualTo("b promoted at epoch 2 (resumed after an interruption)");
        assertThat(world.roles.posted(applier("b"), "/promote")).containsOnly(PROMOTE_TO_EPOCH_2);
    }

    @Test
    void shouldNotPromoteWhenAnotherCoordinatorTakesTheLeadInTheMiddleOfAFailover() {
        world = CoordinatorWorld.empty();
        CountDownLatch drained = new CountDownLatch(1);
        world.roles.on("POST", applier("b"), "/drain", FakeRoles.answeringAfter(drained, "{\"applied_lsn\":\"0/4000\"}"));
        world.start();
        world.awaitPhase(Phase.HEALTHY);
        world.detector.primaryFailed();
        world.awaitPhase(Phase.DRAINING);

        world.store.takenOverBy(s -> s.transition(Phase.SUSPECT, "coordinator-2 leads: a failover was interrupted in DRAINING", 5));
        drained.countDown();

        Await.until("the coordinator follows", TIMEOUT, world::lastDecision, "following: another coordinator leads"::equals);
        assertThat(world.roles.posted(applier("b"), "/promote")).as("nothing promoted by a coordinator that lost the lead").isEmpty();
        ClusterState state = world.store.state();
        assertThat(state.epoch()).isEqualTo(1);
        assertThat(state.primary()).isEqualTo("a");
        assertThat(state.phase()).as("what the new leader wrote stands").isEqualTo(Phase.SUSPECT);
        assertThat(world.transitions()).last().isEqualTo("DRAINING -> SUSPECT");
    }

    @Test
    void shouldHoldClientsWithoutAPrimaryWhileTheStandbyDrainsLate() throws Exception {
        world = CoordinatorWorld.empty();
        CountDownLatch drained = new CountDownLatch(1);
        world.roles.on("POST", applier("b"), "/drain", FakeRoles.answeringAfter(drained, "{\"applied_lsn\":\"0/4000\"}"));
        Coordinator coordinator = world.start();
        world.awaitPhase(Phase.HEALTHY);
        world.detector.primaryFailed();
        world.awaitPhase(Phase.DRAINING);

        Map<String, Object> draining = coordinator.topology().await(-1, 0);
        assertThat(draining).containsEntry("phase", "DRAINING").containsEntry("primary", null);
        assertThat(world.roles.posted(applier("b"), "/promote")).isEmpty();

        drained.countDown();
        world.awaitPhase(Phase.PROMOTED);
        assertThat(coordinator.topology().await(-1, 0).get("primary"))
                .isEqualTo(Map.of("name", "b", "jdbc_url", CoordinatorWorld.jdbcUrl("b")));
    }
}
