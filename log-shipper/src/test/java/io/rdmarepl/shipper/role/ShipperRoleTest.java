package io.rdmarepl.shipper.role;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.control.FenceAnswer;
import io.rdmarepl.control.LeaseAnswer;
import io.rdmarepl.control.LeaseTerms;
import io.rdmarepl.control.ResumeAnswer;
import io.rdmarepl.control.RetireAnswer;
import io.rdmarepl.control.ShipperActivateAnswer;
import io.rdmarepl.shipper.config.ShipperConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The role's transitions and refusals, with a stand-in shipper and slot. */
@Timeout(10)
class ShipperRoleTest {
    private final ShipperConfig config = config();
    private final List<String> calls = new ArrayList<>();
    private final List<FakeShipper> started = new ArrayList<>();
    private final List<Integer> epochs = new ArrayList<>();
    private volatile RuntimeException startFailure;
    private volatile RuntimeException dropFailure;
    private volatile CountDownLatch startGate = new CountDownLatch(0);
    private volatile CountDownLatch starting = new CountDownLatch(1);

    private final ShipperRole.Starter starter = (settings, lease) -> {
        calls.add("start " + settings.snapshotMode());
        epochs.add(settings.ringEpoch());
        starting.countDown();
        try {
            startGate.await();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        if (startFailure != null) {
            throw startFailure;
        }
        FakeShipper shipper = new FakeShipper(settings.snapshotMode());
        started.add(shipper);
        return shipper;
    };

    private final SlotDropper slot = () -> {
        calls.add("drop");
        if (dropFailure != null) {
            throw dropFailure;
        }
        return true;
    };

    @Test
    void aWaitingRoleRunsNothingAndSaysSo() {
        ShipperRole role = ShipperRole.waiting(config, starter, slot);
        Map<String, Object> status = role.status();
        assertThat(status).containsEntry("role_state", "waiting").containsEntry("activation", "on-request")
                .containsEntry("state", "waiting").containsEntry("slot", "rdmarepl").containsEntry("initial_copy", false)
                .containsKey("copy_lsn");
        assertThat(status.get("copy_lsn")).isNull();
        assertThat(role.healthy()).isTrue();
        assertThat(role.failure()).isNull();
        assertThat(calls).isEmpty();
    }

    @Test
    void activationDropsTheSlotThenCopiesFromAFreshOne() {
        ShipperRole role = ShipperRole.waiting(config, starter, slot);
        assertThat(role.activate(7)).isEqualTo(new ShipperActivateAnswer("shipping", "rdmarepl", "initial", true));
        assertThat(calls).containsExactly("drop", "start initial");
        assertThat(role.state()).isEqualTo(RoleState.SHIPPING);
        assertThat(role.status()).containsEntry("role_state", "shipping").containsEntry("state", "streaming")
                .containsEntry("initial_copy", true).containsEntry("copy_lsn", "0/16B3748");
        LeaseAnswer lease = role.renewLease();
        assertThat(started.get(0).leaseRenewals).isEqualTo(1);
        assertThat(lease.terms()).as("fence.lease.ms as configured, the shipper's check and self-fence limit")
                .isEqualTo(new LeaseTerms(config.fenceLeaseMs(), ShipperConfig.LEASE_CHECK_MS, ShipperConfig.SELF_FENCE_TIMEOUT_MS));
        assertThat(lease.guarantee()).isEqualTo(FakeShipper.GUARANTEE);
    }

    @Test
    void aShippingRoleRefusesActivationAndRetirement() {
        ShipperRole role = ShipperRole.shipping(config, new FakeShipper("no_data"), starter, slot);
        assertThatThrownBy(() -> role.activate(null)).isInstanceOf(IllegalStateException.class).hasMessageContaining("already shipping");
        assertThatThrownBy(role::retire).isInstanceOf(IllegalStateException.class).hasMessageContaining("fence it first");
        assertThat(calls).isEmpty();
        assertThat(role.state()).isEqualTo(RoleState.SHIPPING);
    }

    @Test
    void fencingStopsShippingThenRetiringDropsTheSlot() {
        FakeShipper shipper = new FakeShipper("no_data");
        ShipperRole role = ShipperRole.shipping(config, shipper, starter, slot);
        assertThat(role.fence("switchover")).isEqualTo(new FenceAnswer("fenced"));
        assertThat(shipper.fencedReason).isEqualTo("switchover");
        assertThat(role.fence("again")).isEqualTo(new FenceAnswer("fenced"));
        assertThat(shipper.fencedReason).as("fencing is idempotent").isEqualTo("switchover");
        assertThat(role.healthy()).isTrue();
        assertThat(role.status()).containsEntry("role_state", "fenced").containsEntry("state", "fenced");

        assertThat(role.retire()).isEqualTo(new RetireAnswer("retired", true, false));
        assertThat(shipper.closed).isTrue();
        assertThat(calls).containsExactly("drop");
        assertThat(role.status()).containsEntry("role_state", "retired").containsEntry("state", "retired")
                .containsEntry("initial_copy", false);
        assertThat(role.fence("late")).isEqualTo(new FenceAnswer("retired"));
        LeaseAnswer retired = role.renewLease();
        assertThat(retired.guarantee()).as("nothing ships: nothing is promised").isNull();
        assertThat(retired.terms().leaseMs()).isEqualTo(config.fenceLeaseMs());
    }

    @Test
    void aFencedOrRetiredRoleCanBeActivatedAgain() {
        FakeShipper first = new FakeShipper("no_data");
        ShipperRole role = ShipperRole.shipping(config, first, starter, slot);
        role.fence("switchover");
        role.activate(2);
        assertThat(first.closed).as("the fenced shipper is stopped before the slot is dropped").isTrue();
        assertThat(role.state()).isEqualTo(RoleState.SHIPPING);

        role.fence("switchover back");
        role.retire();
        assertThat(role.activate(3).state()).isEqualTo("shipping");
        assertThat(calls).containsExactly("drop", "start initial", "drop", "drop", "start initial");
        assertThat(started).hasSize(2);
        assertThat(started.get(0).closed).isTrue();
    }

    @Test
    void aFencedShipperResumesFromItsSlotAtItsEpochWithoutACopy() throws Exception {
        ShipperRole role = ShipperRole.waiting(config, starter, slot);
        role.activate(7);
        role.fence("failover to b");
        assertThat(role.primary(Duration.ZERO).reportsFenced()).isTrue();
        calls.clear();

        assertThat(role.resume()).isEqualTo(new ResumeAnswer("shipping", true));
        assertThat(calls).as("no slot dropped, no copy: the slot's position goes on").containsExactly("start no_data");
        assertThat(epochs).as("the activation's, then the resumption's").containsExactly(7, 7);
        assertThat(started.get(0).closed).as("the fenced shipper is stopped first").isTrue();
        assertThat(role.state()).isEqualTo(RoleState.SHIPPING);
        assertThat(role.primary(Duration.ZERO).reportsFenced()).isFalse();
    }

    @Test
    void resumingAShippingRoleChangesNothingAndARoleNeverActivatedIsRefused() {
        ShipperRole shipping = ShipperRole.shipping(config, new FakeShipper("no_data"), starter, slot);
        assertThat(shipping.resume()).isEqualTo(new ResumeAnswer("shipping", false));
        assertThat(calls).isEmpty();

        ShipperRole waiting = ShipperRole.waiting(config, starter, slot);
        assertThatThrownBy(waiting::resume).isInstanceOf(IllegalStateException.class)
                .hasMessage("nothing to resume: the shipper is waiting; the coordinator activates it (POST /activate)");
        assertThat(calls).isEmpty();
    }

    @Test
    void aFailedResumptionLeavesTheRoleFencedToBeResumedAgain() {
        FakeShipper first = new FakeShipper("no_data");
        ShipperRole role = ShipperRole.shipping(config, first, starter, slot);
        role.fence("failover to b");
        startFailure = new IllegalStateException("standby a: ring shm:///dev/shm/a not found");

        assertThatThrownBy(role::resume).isInstanceOf(IllegalStateException.class)
                .hasMessage("not resumed: standby a: ring shm:///dev/shm/a not found");
        assertThat(role.state()).isEqualTo(RoleState.FENCED);
        assertThat(first.closed).as("the fenced shipper was stopped before the start that failed").isTrue();
        assertThat(role.status()).containsEntry("reason", "the resumption failed: standby a: ring shm:///dev/shm/a not found");
        startFailure = null;
        assertThat(role.resume()).isEqualTo(new ResumeAnswer("shipping", true));
    }

    @Test
    void aFenceDuringAResumptionFencesTheShipperItStarts() throws Exception {
        ShipperRole role = ShipperRole.shipping(config, new FakeShipper("no_data"), starter, slot);
        role.fence("failover to b");
        startGate = new CountDownLatch(1);
        CompletableFuture<ResumeAnswer> resumption = CompletableFuture.supplyAsync(role::resume);
        assertThat(starting.await(5, TimeUnit.SECONDS)).isTrue();

        assertThatThrownBy(role::resume).hasMessageContaining("a resumption is in progress");
        assertThat(role.fence("failover to b, again")).isEqualTo(new FenceAnswer("fenced"));
        startGate.countDown();

        assertThat(resumption.get(5, TimeUnit.SECONDS)).isEqualTo(new ResumeAnswer("fenced", true));
        assertThat(started.get(0).fencedReason).isEqualTo("failover to b, again");
    }

    @Test
    void aShipperThatFencedItselfCountsAsFenced() {
        FakeShipper shipper = new FakeShipper("no_data");
        ShipperRole role = ShipperRole.shipping(config, shipper, starter, slot);
        shipper.healthy = false;
        shipper.fence("self-fenced: no word from a standby or the coordinator");
        assertThat(role.state()).isEqualTo(RoleState.FENCED);
        assertThat(role.healthy()).as("the process is fine, it just does not ship").isTrue();
        assertThat(role.activate(null).state()).isEqualTo("shipping");
    }

    @Test
    void healthFollowsTheShipperWhileShipping() {
        FakeShipper shipper = new FakeShipper("no_data");
        ShipperRole role = ShipperRole.shipping(config, shipper, starter, slot);
        assertThat(role.healthy()).isTrue();
        shipper.healthy = false;
        assertThat(role.healthy()).isFalse();
    }

    @Test
    void aFailedActivationLeavesTheRoleWhereItWas() {
        ShipperRole role = ShipperRole.waiting(config, starter, slot);
        startFailure = new IllegalStateException("standby a: ring shm:///dev/shm/a not found");
        assertThatThrownBy(() -> role.activate(4)).isInstanceOf(IllegalStateException.class).hasMessageContaining("ring");
        assertThat(role.state()).isEqualTo(RoleState.WAITING);
        startFailure = null;
        assertThat(role.activate(4).state()).isEqualTo("shipping");
    }

    @Test
    void aSlotThatCannotBeDroppedStopsRetirementAndActivation() {
        FakeShipper shipper = new FakeShipper("no_data");
        ShipperRole role = ShipperRole.shipping(config, shipper, starter, slot);
        role.fence("switchover");
        dropFailure = new IllegalStateException("cannot drop replication slot rdmarepl: primary postgres@localhost:5432/postgres unreachable");
        assertThatThrownBy(role::retire).hasMessageContaining("postgres@localhost:5432/postgres");
        assertThat(role.state()).isEqualTo(RoleState.FENCED);
        assertThatThrownBy(() -> role.activate(5)).hasMessageContaining("unreachable");
        assertThat(calls).doesNotContain("start initial");
        dropFailure = null;
        assertThat(role.retire().state()).isEqualTo("retired");
    }

    @Test
    void aFenceDuringAnActivationFencesTheShipperItStarts() throws Exception {
        ShipperRole role = ShipperRole.waiting(config, starter, slot);
        startGate = new CountDownLatch(1);
        starting = new CountDownLatch(1);
        CompletableFuture<ShipperActivateAnswer> activation = CompletableFuture.supplyAsync(() -> role.activate(6));
        assertThat(starting.await(5, TimeUnit.SECONDS)).isTrue();

        assertThatThrownBy(() -> role.activate(6)).hasMessageContaining("an activation is in progress");
        assertThatThrownBy(role::retire).hasMessageContaining("an activation is in progress");
        assertThat(role.fence("failover")).isEqualTo(new FenceAnswer("fenced"));
        startGate.countDown();

        assertThat(activation.get(5, TimeUnit.SECONDS).state()).isEqualTo("fenced");
        assertThat(started.get(0).fencedReason).isEqualTo("failover");
        assertThat(role.state()).isEqualTo(RoleState.FENCED);
    }

    @Test
    void closingStopsTheShipper() {
        FakeShipper shipper = new FakeShipper("no_data");
        ShipperRole role = ShipperRole.shipping(config, shipper, starter, slot);
        role.close(java.time.Duration.ofSeconds(1));
        assertThat(shipper.closed).isTrue();
        assertThat(role.healthy()).isTrue();
    }

    private static ShipperConfig config() {
        Properties p = new Properties();
        p.setProperty("standbys", "a");
        p.setProperty("standby.a.uri", "shm:///dev/shm/a");
        p.setProperty("activation", "on-request");
        return ShipperConfig.load(p);
    }
}
