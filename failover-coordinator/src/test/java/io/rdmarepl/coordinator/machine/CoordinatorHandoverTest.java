package io.rdmarepl.coordinator.machine;

import static io.rdmarepl.coordinator.machine.CoordinatorWorld.TIMEOUT;
import static io.rdmarepl.coordinator.machine.CoordinatorWorld.applier;
import static io.rdmarepl.coordinator.machine.CoordinatorWorld.shipper;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.coordinator.state.Phase;
import io.rdmarepl.coordinator.state.Role;
import io.rdmarepl.testsupport.Await;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The planned moves of the state machine against fakes (see {@link CoordinatorTest}): switchover and rejoin, an
 * operator's fence, and a standby left draining that is told to follow again.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CoordinatorHandoverTest {
    private static final String PROMOTE_TO_EPOCH_2 = "{\"epoch\":2}";

    private CoordinatorWorld world;

    @AfterEach
    void stop() {
        if (world != null) {
            world.close();
        }
    }

    @Test
    void shouldSwitchOverWithNothingLostThenRejoinTheOldPrimaryAsAStandby() throws Exception {
        world = CoordinatorWorld.manual();
        world.standbys.get("b").applied(FakeMarker.LSN);
        Coordinator coordinator = world.start();
        world.awaitPhase(Phase.HEALTHY);

        Map<String, Object> report = coordinator.switchover("b");

        assertThat(report).containsEntry("result", "switched").containsEntry("new_primary", "b").containsEntry("epoch", 2)
                .containsEntry("marker_lsn", FakeMarker.LSN);
        assertThat(report.get("rejoin")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP).containsEntry("result", "rejoining");
        assertThat(world.phase()).isEqualTo(Phase.REJOINING);
        assertThat(world.role("a")).isEqualTo(Role.REJOINING);
        assertThat(world.fencer.calls()).containsExactly("fenceClients a", "stopShipperNow a");
        assertThat(world.roles.posted(applier("a"), "/activate")).containsExactly(PROMOTE_TO_EPOCH_2);
        assertThat(world.roles.posted(shipper("b"), "/activate")).containsExactly(PROMOTE_TO_EPOCH_2);
        assertThat(world.roles.posted(shipper("a"), "/fence")).containsExactly("{\"reason\":\"a rejoins as a standby\"}");

        world.roles.on("GET", shipper("b"), "/status", FakeRoles.answering("{\"initial_copy\":false,\"copy_lsn\":\"0/6000\"}"));
        world.standbys.get("a").applied("0/6000");
        world.awaitPhase(Phase.HEALTHY);

        assertThat(world.transitions()).containsExactly("uninitialised -> HEALTHY", "HEALTHY -> SWITCHOVER", "SWITCHOVER -> PROMOTING",
                "PROMOTING -> PROMOTED", "PROMOTED -> REJOINING", "REJOINING -> HEALTHY");
        assertThat(world.role("a")).isEqualTo(Role.STANDBY);
        assertThat(world.fencer.calls()).last().as("read-only lifted once a is a standby").isEqualTo("unfence a");
    }

    @Test
    void shouldWaitInSwitchoverUntilTheStandbyAppliesTheMarkerLate() {
        world = CoordinatorWorld.manual();
        Coordinator coordinator = world.start();
        world.awaitPhase(Phase.HEALTHY);

        CompletableFuture<Map<String, Object>> switchover = CoordinatorWorld.async(() -> coordinator.switchover("b"));
        world.awaitPhase(Phase.SWITCHOVER);
        assertThat(world.roles.posted(applier("b"), "/promote")).as("b has not applied the marker yet").isEmpty();
        assertThat(switchover).isNotDone();

        world.standbys.get("b").applied(FakeMarker.LSN);
        Await.until("the switchover is done", TIMEOUT, switchover::isDone);
        assertThat(switchover.join()).containsEntry("result", "switched");
        assertThat(world.transitions()).contains("HEALTHY -> SWITCHOVER", "SWITCHOVER -> PROMOTING", "PROMOTING -> PROMOTED");
        assertThat(world.roles.posted(applier("b"), "/promote")).containsExactly(PROMOTE_TO_EPOCH_2);
    }

    @Test
    void shouldCallOffASwitchoverWhenThePrimaryCannotBeFencedForIt() {
        world = CoordinatorWorld.manual();
        world.fencer.clientFenceFailing("connection reset");
        Coordinator coordinator = world.start();
        world.awaitPhase(Phase.HEALTHY);

        assertThatThrownBy(() -> coordinator.switchover("b")).isInstanceOf(Refused.class)
                .hasMessage("switchover called off: a could not be fenced or marked (connection reset); a takes writes again");
        assertThat(world.transitions()).endsWith("HEALTHY -> SWITCHOVER", "SWITCHOVER -> HEALTHY");
        assertThat(world.fencer.calls()).containsExactly("fenceClients a", "unfence a");
        assertThat(world.store.state().epoch()).isEqualTo(1);
    }

    @Test
    void shouldRefuseASwitchoverUnlessTheClusterIsHealthy() {
        world = CoordinatorWorld.manual();
        Coordinator coordinator = world.start();
        world.awaitPhase(Phase.HEALTHY);
        world.detector.primaryFailed();
        world.awaitPhase(Phase.SUSPECT);

        assertThatThrownBy(() -> coordinator.switchover("b")).isInstanceOf(Refused.class)
                .hasMessageStartingWith("a switchover needs a HEALTHY cluster; it is SUSPECT");
        assertThat(world.fencer.calls()).isEmpty();
    }

    @Test
    void shouldRefuseToRejoinAMemberThatWasNeverFenced() {
        world = CoordinatorWorld.manual();
        Coordinator coordinator = world.start();
        world.awaitPhase(Phase.HEALTHY);

        assertThatThrownBy(() -> coordinator.rejoin("c")).isInstanceOf(Refused.class)
                .hasMessage("c is STANDBY: only a fenced former primary rejoins");
    }

    @Test
    void shouldFenceAMemberOnTheOperatorsRequest() throws Exception {
        world = CoordinatorWorld.manual();
        Coordinator coordinator = world.start();
        world.awaitPhase(Phase.HEALTHY);

        assertThat(coordinator.fence("c")).containsEntry("result", "fenced").containsEntry("member", "c");
        assertThat(world.role("c")).isEqualTo(Role.FENCED);
        assertThat(world.phase()).isEqualTo(Phase.HEALTHY);
    }

    @Test
    void shouldTellAStandbyLeftDrainingToFollowThePrimaryAgain() {
        world = CoordinatorWorld.manual();
        world.start();
        world.awaitPhase(Phase.HEALTHY);

        world.standbys.get("c").state("draining");
        Await.until("c is told to follow", TIMEOUT, () -> world.roles.posted(applier("c"), "/follow").size(), n -> n >= 1);
        assertThat(world.roles.posted(applier("b"), "/follow")).as("b streams: left alone").isEmpty();
    }
}
