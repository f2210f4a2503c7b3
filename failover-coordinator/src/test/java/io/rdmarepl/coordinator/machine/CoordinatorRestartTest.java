package io.rdmarepl.coordinator.machine;

import static io.rdmarepl.coordinator.machine.CoordinatorWorld.applier;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.coordinator.state.ClusterState;
import io.rdmarepl.coordinator.state.Phase;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A coordinator restarted in the middle of something (see {@link CoordinatorTest}): it decides again from the phase the
 * store holds, and never promotes twice.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CoordinatorRestartTest {
    private static final String PROMOTE_TO_EPOCH_2 = "{\"epoch\":2}";

    private CoordinatorWorld world;

    @AfterEach
    void stop() {
        if (world != null) {
            world.close();
        }
    }

    @Test
    void shouldDecideAgainWhenRestartedInTheMiddleOfADrain() {
        world = CoordinatorWorld.restartedWith(CoordinatorWorld.initialIn(Phase.DRAINING));
        world.start();

        world.awaitPhase(Phase.HEALTHY);
        assertThat(world.transitions()).endsWith("HEALTHY -> DRAINING", "DRAINING -> SUSPECT", "SUSPECT -> HEALTHY");
        assertThat(world.reasonFor(Phase.SUSPECT)).isEqualTo("a failover was interrupted in DRAINING (coordinator restart): deciding again");
        assertThat(world.store.state().epoch()).isEqualTo(1);
    }

    @Test
    void shouldFinishAPromotionWhoseEpochWasPublishedBeforeARestart() {
        ClusterState promoting = CoordinatorWorld.initialIn(Phase.DRAINING).promote("b", Phase.PROMOTING, "epoch 2: promoting b", 3);
        world = CoordinatorWorld.restartedWith(promoting);
        world.start();

        world.awaitPhase(Phase.PROMOTED);
        assertThat(world.roles.posted(applier("b"), "/promote")).containsExactly(PROMOTE_TO_EPOCH_2);
        assertThat(world.reasonFor(Phase.PROMOTED)).isEqualTo("b promoted at epoch 2 (resumed after an interruption)");
    }

    @Test
    void shouldCallOffASwitchoverInterruptedByARestart() {
        world = CoordinatorWorld.restartedWith(CoordinatorWorld.initialIn(Phase.SWITCHOVER));
        world.start();

        world.awaitPhase(Phase.HEALTHY);
        assertThat(world.reasonFor(Phase.HEALTHY)).isEqualTo("switchover called off: it was interrupted (coordinator restart) "
                + "before the promotion; a takes writes again");
        assertThat(world.fencer.calls()).containsExactly("unfence a");
        assertThat(world.store.state().epoch()).isEqualTo(1);
    }
}
