package io.rdmarepl.shipper.role;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.shipper.lease.Lease;
import io.rdmarepl.shipper.ship.StaleEpochException;
import io.rdmarepl.testsupport.Await;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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

    private final ShipperRole.Starter starter = (settings, lease) -> {
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
        ShipperRole role = InitialRole.start(config("immediate"), starter, slot);

        assertThat(role.state()).isEqualTo(RoleState.SHIPPING);
        assertThat(calls).containsExactly("start no_data at epoch 1");
    }

    @Test
    void shouldShipAtTheEpochOfItsLastActivationAfterARestart() {
        ShipperRole.waiting(config("on-request"), starter, slot).activate(3);
        calls.clear();

        ShipperRole restarted = InitialRole.start(config("immediate"), starter, slot);

        assertThat(restarted.state()).isEqualTo(RoleState.SHIPPING);
        assertThat(calls).containsExactly("start no_data at epoch 3");
        assertThat(leaseDir.resolve("rdmarepl-epoch-primary")).hasContent("epoch 3");
    }

    @Test
    void shouldShipOnAfterARestartWhenTheCoordinatorActivatedItOnRequest() {
        ShipperRole.waiting(config("on-request"), starter, slot).activate(3);
        calls.clear();

        ShipperRole restarted = InitialRole.start(config("on-request"), starter, slot);

        assertThat(restarted.state()).as("a crash of the primary's shipper must not wait for an activation").isEqualTo(RoleState.SHIPPING);
        assertThat(calls).as("from the slot it has, no copy").containsExactly("start no_data at epoch 3");
        restarted.fence("rejoining as a standby");
        restarted.retire();
        calls.clear();
        assertThat(InitialRole.start(config("on-request"), starter, slot).state()).as("retired: waits").isEqualTo(RoleState.WAITING);
        assertThat(calls).isEmpty();
    }

    @Test
    void shouldShipNothingAfterARestartOnceRetired() {
        ShipperRole role = InitialRole.start(config("immediate"), starter, slot);
        role.fence("rejoining as a standby");
        role.retire();
        calls.clear();

        ShipperRole restarted = InitialRole.start(config("immediate"), starter, slot);

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

        ShipperRole role = InitialRole.start(config("immediate"), starter, slot);

        assertThat(role.state()).isEqualTo(RoleState.WAITING);
        assertThat(role.status()).containsEntry("role_state", "waiting").hasEntrySatisfying("reason",
                reason -> assertThat((String) reason).contains("its ring is at epoch 2, this shipper ships at epoch 1"));
        assertThat(role.retire().state()).isEqualTo("retired");
        assertThat(calls).containsExactly("start no_data at epoch 1", "drop");
    }

    @Test
    void shouldLetAnyOtherStartFailurePropagateForItsSupervisorToRestartIt() {
        startFailure = new IllegalStateException("standby b unreachable");

        assertThatThrownBy(() -> InitialRole.start(config("immediate"), starter, slot))
                .isInstanceOf(IllegalStateException.class).hasMessage("standby b unreachable");
    }

    @Test
    void shouldServeTheCoordinatorWhileItStartsAndFenceTheShipperItStartsWhenAskedMeanwhile() throws Exception {
        Lease inherited = Lease.inherited(2000, System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(1500), "standby a");
        CountDownLatch connected = new CountDownLatch(1);
        FakeShipper shipper = new FakeShipper("no_data");
        ShipperRole role = InitialRole.prepare(config("immediate"), (settings, leaseOpened) -> {
            leaseOpened.accept(inherited);
            await(connected); // a standby a partition hides
            return shipper;
        }, slot);
        assertThat(role.state()).isEqualTo(RoleState.STARTING);
        Thread start = new Thread(role::startAsConfigured);
        start.start();
        Await.until("the lease opened", Duration.ofSeconds(5), () -> {
            role.renewLease();
            return "coordinator".equals(inherited.lastContact());
        });

        assertThat(inherited.expiry()).as("renewed, not run out").isNull();
        assertThatThrownBy(() -> role.activate(2)).hasMessageContaining("a start is in progress");
        assertThat(role.fence("fenced by the coordinator").state()).isEqualTo("fenced");
        connected.countDown();
        start.join();

        assertThat(role.state()).isEqualTo(RoleState.FENCED);
        assertThat(shipper.fenced()).isTrue();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
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
