package io.rdmarepl.shipper.role;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.shipper.ship.StaleEpochException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shipper process started again by its supervisor ({@code activation=immediate}) after the coordinator moved its
 * member: it ships at the epoch of its last activation, ships nothing once retired, and waits with its admin endpoint
 * up when a standby refuses its epoch.
 */
@Timeout(10)
class ShipperRoleRestartTest {
    @TempDir
    Path leaseDir;

    private final List<String> calls = new ArrayList<>();
    private RuntimeException startFailure;

    private final ShipperRole.Starter starter = settings -> {
        calls.add("start " + settings.snapshotMode() + " at epoch " + settings.ringEpoch());
        if (startFailure != null) {
            RuntimeException failure = startFailure;
            startFailure = null;
            throw failure;
        }
        return new FakeShipper(settings.snapshotMode());
    };

    private final SlotDropper slot = () -> {
        calls.add("drop");
        return true;
    };

    @Test
    void shouldShipAtRingEpochWhenNothingWasKept() {
        ShipperRole role = ShipperRole.start(config("immediate"), starter, slot);

        assertThat(role.state()).isEqualTo(RoleState.SHIPPING);
        assertThat(calls).containsExactly("start no_data at epoch 1");
    }

    @Test
    void shouldShipAtTheEpochOfItsLastActivationAfterARestart() {
        ShipperRole.waiting(config("on-request"), starter, slot).activate(3);
        calls.clear();

        ShipperRole restarted = ShipperRole.start(config("immediate"), starter, slot);

        assertThat(restarted.state()).isEqualTo(RoleState.SHIPPING);
        assertThat(calls).containsExactly("start no_data at epoch 3");
        assertThat(leaseDir.resolve("rdmarepl-epoch-primary")).hasContent("epoch 3");
    }

    @Test
    void shouldShipNothingAfterARestartOnceRetired() {
        ShipperRole role = ShipperRole.start(config("immediate"), starter, slot);
        role.fence("rejoining as a standby");
        role.retire();
        calls.clear();

        ShipperRole restarted = ShipperRole.start(config("immediate"), starter, slot);

        assertThat(restarted.state()).isEqualTo(RoleState.RETIRED);
        assertThat(calls).isEmpty();
        assertThat(restarted.status()).containsEntry("role_state", "retired")
                .hasEntrySatisfying("reason", reason -> assertThat((String) reason).contains("retired by the coordinator"));
        assertThat(restarted.activate(4).state()).isEqualTo("shipping");
        assertThat(calls).containsExactly("drop", "start initial at epoch 4");
        assertThat(leaseDir.resolve("rdmarepl-epoch-primary")).hasContent("epoch 4");
    }

    @Test
    void shouldWaitForTheCoordinatorWhenAStandbyRefusesItsEpoch() {
        startFailure = new StaleEpochException("b", 1, 2);

        ShipperRole role = ShipperRole.start(config("immediate"), starter, slot);

        assertThat(role.state()).isEqualTo(RoleState.WAITING);
        assertThat(role.status()).containsEntry("role_state", "waiting").hasEntrySatisfying("reason",
                reason -> assertThat((String) reason).contains("its ring is at epoch 2, this shipper ships at epoch 1"));
        assertThat(role.retire().state()).isEqualTo("retired");
        assertThat(calls).containsExactly("start no_data at epoch 1", "drop");
    }

    @Test
    void shouldLetAnyOtherStartFailurePropagateForItsSupervisorToRestartIt() {
        startFailure = new IllegalStateException("standby b unreachable");

        assertThatThrownBy(() -> ShipperRole.start(config("immediate"), starter, slot))
                .isInstanceOf(IllegalStateException.class).hasMessage("standby b unreachable");
    }

    @Test
    void shouldKeepNothingWithoutALease() throws Exception {
        Properties p = properties("on-request");
        p.setProperty("fence.lease.ms", "0");
        ShipperRole.waiting(ShipperConfig.load(p), starter, slot).activate(3);

        try (var files = Files.list(leaseDir)) {
            assertThat(files).isEmpty();
        }
    }

    private ShipperConfig config(String activation) {
        return ShipperConfig.load(properties(activation));
    }

    private Properties properties(String activation) {
        Properties p = new Properties();
        p.setProperty("standbys", "a");
        p.setProperty("standby.a.uri", "shm:///dev/shm/a");
        p.setProperty("activation", activation);
        p.setProperty("fence.lease.ms", "2000");
        p.setProperty("fence.lease.dir", leaseDir.toString());
        return p;
    }
}
