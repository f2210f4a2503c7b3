package io.rdmarepl.coordinator.machine;

import static io.rdmarepl.coordinator.machine.CoordinatorWorld.TIMEOUT;
import static io.rdmarepl.coordinator.machine.CoordinatorWorld.applier;
import static io.rdmarepl.coordinator.machine.CoordinatorWorld.shipper;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.coordinator.state.Phase;
import io.rdmarepl.testsupport.Await;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fence of a failover that did not happen ({@link FenceLift}): lifted before a SUSPECT cluster is HEALTHY again, or
 * when a HEALTHY primary's shipper says it is fenced; never by a coordinator another one wrote behind, never over an
 * operator's fence. Against the same fakes as {@link CoordinatorTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CoordinatorFenceLiftTest {
    private CoordinatorWorld world;

    @AfterEach
    void stop() {
        if (world != null) {
            world.close();
        }
    }

    @Test
    void shouldLiftTheFenceOfARefusedFailoverBeforeTheClusterIsHealthyAgain() {
        refuseAFailoverAfterItsFence();
        assertThat(world.fencer.readOnly("a")).as("the refused failover fenced a").isTrue();
        assertThat(world.fencer.shipperFenced("a")).isTrue();

        world.detector.primaryHealthy();
        world.awaitPhase(Phase.HEALTHY);

        assertThat(world.fencer.readOnly("a")).as("HEALTHY over a read-only primary: every write refused").isFalse();
        assertThat(world.fencer.shipperFenced("a")).as("HEALTHY over a fenced shipper: nothing shipped").isFalse();
        assertThat(world.fencer.calls()).containsSubsequence("fence a", "unfence a");
        assertThat(world.roles.posted(shipper("a"), "/resume")).hasSize(1);
        assertThat(world.reasonFor(Phase.HEALTHY)).endsWith("a was fenced and nothing was promoted: it takes writes again and its shipper ships");
        assertThat(world.store.state().epoch()).isEqualTo(1);
    }

    @Test
    void shouldStaySuspectWhileTheFencedShipperDoesNotResume() {
        refuseAFailoverAfterItsFence();
        world.roles.on("POST", shipper("a"), "/resume", FakeRoles.refusing("POST http://a.shipper:7402/resume answered 409: not resumed: "
                + "standby b: ring refused"));

        world.detector.primaryHealthy();
        Await.until("the coordinator says why it is not HEALTHY", TIMEOUT, world::lastDecision,
                d -> d != null && d.endsWith("not HEALTHY yet: a takes writes again but its shipper did not resume (POST http://a.shipper:7402"
                        + "/resume answered 409: not resumed: standby b: ring refused)"));
        assertThat(world.phase()).isEqualTo(Phase.SUSPECT);

        world.roles.on("POST", shipper("a"), "/resume", body -> {
            world.fencer.shipperResumed("a");
            return FakeRoles.json("{\"state\":\"shipping\",\"resumed\":true}");
        });
        world.awaitPhase(Phase.HEALTHY);
        assertThat(world.fencer.shipperFenced("a")).isFalse();
        assertThat(world.fencer.readOnly("a")).isFalse();
    }

    @Test
    void shouldKeepASuspectClusterFromHealthyUntilTheFencedPrimarysShipperShips() {
        refuseAFailoverAfterItsFence();
        world.roles.on("GET", shipper("a"), "/primary", FakeRoles.refusing("GET http://a.shipper:7402/primary: connection refused"));

        world.detector.primaryHealthy();
        Await.until("the coordinator waits for a's shipper", TIMEOUT, world::lastDecision, d -> d != null && d.endsWith(
                "not HEALTHY yet: a was fenced by a failover that did not happen, and its shipper does not say whether it ships"
                        + " (GET http://a.shipper:7402/primary: connection refused)"));
        world.roles.on("GET", shipper("a"), "/primary", FakeRoles.answering("{\"shipping\":false,\"fenced\":false}"));
        Await.until("the coordinator waits for a shipper that ships", TIMEOUT, world::lastDecision, d -> d != null && d.endsWith(
                "not HEALTHY yet: a takes writes again but its shipper does not ship (no shipper runs there)"));
        assertThat(world.phase()).isEqualTo(Phase.SUSPECT);
        assertThat(world.fencer.readOnly("a")).isFalse();

        world.roles.on("GET", shipper("a"), "/primary", FakeRoles.answering("{\"shipping\":true,\"fenced\":false}"));
        world.awaitPhase(Phase.HEALTHY);
        assertThat(world.reasonFor(Phase.HEALTHY)).endsWith("a was fenced and nothing was promoted: it takes writes again and its shipper ships");
    }

    @Test
    void shouldLiftNothingOnceAnotherCoordinatorWroteSinceItsLastRead() {
        Coordinator coordinator = refuseAFailoverAfterItsFence();
        world.store.takenOverBy(s -> s.promote("b", Phase.PROMOTED, "coordinator-2 promoted b", 5));
        world.store.leader(true); // a stale leader: its next compare-and-set loses

        world.detector.primaryHealthy();
        Await.until("the coordinator re-read the state", TIMEOUT, coordinator::phase, p -> p == Phase.PROMOTED);
        assertThat(world.fencer.readOnly("a")).as("b takes writes: a must stay fenced").isTrue();
        assertThat(world.fencer.calls()).doesNotContain("unfence a");
        assertThat(world.roles.posted(shipper("a"), "/resume")).isEmpty();
    }

    @Test
    void shouldRecoverWithoutTheShippersWordWhenNoFailoverFencedThePrimary() {
        world = CoordinatorWorld.manual();
        world.start();
        world.awaitPhase(Phase.HEALTHY);
        world.roles.on("GET", shipper("a"), "/primary", FakeRoles.refusing("GET http://a.shipper:7402/primary: connection refused"));
        world.detector.primaryFailed();
        world.awaitPhase(Phase.SUSPECT);

        world.detector.primaryHealthy();
        world.awaitPhase(Phase.HEALTHY);
        assertThat(world.fencer.calls()).as("nothing fenced, nothing lifted").isEmpty();
        assertThat(world.roles.posted(shipper("a"), "/resume")).isEmpty();
    }

    @Test
    void shouldLeaveAPrimaryTheOperatorFencedAsItIs() throws Exception {
        world = CoordinatorWorld.manual();
        Coordinator coordinator = world.start();
        world.awaitPhase(Phase.HEALTHY);
        coordinator.fence("a");
        assertThat(world.fencer.shipperFenced("a")).isTrue();

        // nothing to wait for: the coordinator must not act, watched over a few hundred of its cycles
        Await.holds("a stays fenced and the cluster HEALTHY", Duration.ofMillis(500),
                () -> world.phase() == Phase.HEALTHY && world.fencer.readOnly("a") && world.fencer.shipperFenced("a"));
        assertThat(world.roles.posted(shipper("a"), "/resume")).isEmpty();
    }

    /** A failover to b refused at its drain, after it fenced a (its SQL and its shipper). */
    private Coordinator refuseAFailoverAfterItsFence() {
        world = CoordinatorWorld.manual();
        Coordinator coordinator = world.start();
        world.awaitPhase(Phase.HEALTHY);
        world.detector.primaryFailed();
        world.awaitPhase(Phase.SUSPECT);
        world.roles.on("POST", applier("b"), "/drain", FakeRoles.refusing("POST http://b.applier:7401/drain answered 409: paused"));
        assertThatThrownBy(() -> coordinator.failover("b", false)).isInstanceOf(Refused.class);
        return coordinator;
    }

    @Test
    void shouldLiftAFenceThatLandsOnTheShipperOfAHealthyPrimary() {
        world = CoordinatorWorld.manual();
        world.start();
        world.awaitPhase(Phase.HEALTHY);
        world.fencer.fence(world.config.member("a").orElseThrow()); // a's SQL and its shipper, as a refused failover left them

        Await.until("a's fence lifted", TIMEOUT, () -> !world.fencer.readOnly("a") && !world.fencer.shipperFenced("a"));
        world.awaitPhase(Phase.HEALTHY);

        assertThat(world.transitions()).endsWith("HEALTHY -> SUSPECT", "SUSPECT -> HEALTHY");
        assertThat(world.roles.posted(shipper("a"), "/resume")).hasSize(1);
        assertThat(world.reasonFor(Phase.SUSPECT)).startsWith("a's shipper says it is fenced");
        assertThat(world.store.state().epoch()).isEqualTo(1);
    }
}
