package io.rdmarepl.applier.role;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.applier.apply.ApplierState;
import io.rdmarepl.applier.apply.ApplierStatus;
import io.rdmarepl.applier.config.ApplierConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class ApplierRoleTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    private final List<FakeApplier> started = new ArrayList<>();
    private RuntimeException nextStartFailure;

    private ApplierRole role(String activation) {
        ApplierConfig config = ApplierConfig.of("activation", activation, "ring.uri", "shm:///dev/shm/role-test",
                "ring.epoch", "1");
        return ApplierRole.create(config, c -> {
            if (nextStartFailure != null) {
                RuntimeException failure = nextStartFailure;
                nextStartFailure = null;
                throw failure;
            }
            FakeApplier applier = new FakeApplier(c);
            started.add(applier);
            return applier;
        });
    }

    @Test
    void shouldWaitWithoutStartingAnApplierAndSaySoInStatus() {
        ApplierRole role = role("on-request");

        assertThat(started).isEmpty();
        assertThat(role.state()).isEqualTo("waiting");
        assertThat(role.healthy()).isTrue();
        assertThat(role.current()).isEmpty();
        assertThat(role.statusDocument()).containsExactly(Map.entry("state", "waiting"),
                Map.entry("reason", "waiting for POST /activate (activation=on-request)"),
                Map.entry("activation", "on-request"));
    }

    @Test
    void shouldRefuseDrainPromoteAndEpochWhileWaiting() {
        ApplierRole role = role("on-request");

        assertThatThrownBy(role::drain).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("not following: activate it first");
        assertThatThrownBy(() -> role.promote(TIMEOUT)).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("not following: activate it first");
        assertThatThrownBy(() -> role.epoch(2)).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("not following: activate it first");
        assertThat(started).isEmpty();
    }

    @Test
    void shouldFollowOnceActivatedThenRefuseASecondActivation() {
        ApplierRole role = role("on-request");

        ApplierStatus status = role.activate(OptionalInt.of(3));

        assertThat(started).hasSize(1);
        assertThat(started.get(0).config.ringEpoch()).as("ring created at the requested epoch").isEqualTo(3);
        assertThat(status.state()).isEqualTo(ApplierState.STREAMING);
        assertThat(status.ringUri()).isEqualTo("shm:///dev/shm/role-test");
        assertThat(status.ringEpoch()).isEqualTo(3);
        assertThat(role.state()).isEqualTo("streaming");
        assertThat(role.statusDocument()).containsEntry("activation", "on-request")
                .containsEntry("last_message_age_ms", 3L).containsKeys("position", "ring", "lag_ms");
        assertThatThrownBy(() -> role.activate(OptionalInt.empty())).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("already following primary through shm:///dev/shm/role-test (state streaming)");
        role.drain();
        assertThatThrownBy(() -> role.activate(OptionalInt.empty())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already following").hasMessageContaining("state draining");
        assertThat(started).hasSize(1);
        assertThat(started.get(0).closed).isFalse();
    }

    @Test
    void shouldRefuseActivationWhilePausedOrRetrying() {
        ApplierRole role = role("on-request");
        role.activate(OptionalInt.empty());
        for (ApplierState paused : List.of(ApplierState.RETRYING, ApplierState.PAUSED_SCHEMA, ApplierState.PAUSED_ERROR)) {
            started.get(0).state = paused;
            assertThatThrownBy(() -> role.activate(OptionalInt.empty())).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("already following").hasMessageContaining(paused.displayName());
        }
    }

    @Test
    void shouldActivateAgainAfterPromotionClosingThePromotedApplierFirst() throws Exception {
        ApplierRole role = role("on-request");
        role.activate(OptionalInt.of(2));
        role.promote(TIMEOUT);
        assertThat(role.state()).isEqualTo("promoted");

        ApplierStatus status = role.activate(OptionalInt.of(5));

        assertThat(started).hasSize(2);
        assertThat(started.get(0).closed).as("the promoted applier released its ring").isTrue();
        assertThat(started.get(1).closed).isFalse();
        assertThat(status.ringEpoch()).isEqualTo(5);
        assertThat(role.state()).isEqualTo("streaming");
        assertThat(role.current()).containsSame(started.get(1));
    }

    @Test
    void shouldUseTheConfiguredEpochWhenActivationNamesNone() throws Exception {
        ApplierRole role = role("on-request");
        role.activate(OptionalInt.of(4));
        role.promote(TIMEOUT);

        assertThat(role.activate(OptionalInt.empty()).ringEpoch()).isEqualTo(1);
    }

    @Test
    void shouldActivateAgainWhenTheApplierStopped() {
        ApplierRole role = role("on-request");
        role.activate(OptionalInt.empty());
        started.get(0).close();

        assertThatThrownBy(role::drain).isInstanceOf(IllegalStateException.class).hasMessageContaining("stopped");
        role.activate(OptionalInt.empty());
        assertThat(started).hasSize(2);
    }

    @Test
    void shouldRefuseANonPositiveEpochWithoutTouchingTheApplier() {
        ApplierRole role = role("on-request");

        assertThatThrownBy(() -> role.activate(OptionalInt.of(0))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("epoch must be a positive integer, got 0");
        assertThat(started).isEmpty();
        assertThat(role.state()).isEqualTo("waiting");
    }

    @Test
    void shouldStayWaitingNamingTheFailureWhenTheApplierCannotStartAndAcceptARetry() {
        ApplierRole role = role("on-request");
        nextStartFailure = new IllegalStateException("cannot connect to the replica at jdbc:postgresql://db:5432/postgres");

        assertThatThrownBy(() -> role.activate(OptionalInt.empty())).isInstanceOf(ActivationException.class)
                .isNotInstanceOf(IllegalStateException.class)
                .hasMessage("activation failed, still waiting: cannot connect to the replica at jdbc:postgresql://db:5432/postgres");
        assertThat(role.state()).isEqualTo("waiting");
        assertThat(role.statusDocument().get("reason")).asString()
                .isEqualTo("waiting for POST /activate (activation=on-request); the last activation failed: "
                        + "cannot connect to the replica at jdbc:postgresql://db:5432/postgres");

        role.activate(OptionalInt.empty());
        assertThat(role.state()).isEqualTo("streaming");
    }

    @Test
    void shouldFollowAtOnceWhenActivationIsImmediate() throws Exception {
        ApplierRole role = role("immediate");

        assertThat(started).hasSize(1);
        assertThat(role.state()).isEqualTo("streaming");
        assertThat(role.statusDocument()).containsEntry("activation", "immediate");
        role.promote(TIMEOUT);
        role.activate(OptionalInt.empty());
        assertThat(started).hasSize(2);
    }

    @Test
    void shouldCloseTheApplierAndRefuseActivationOnceClosed() {
        ApplierRole role = role("on-request");
        role.activate(OptionalInt.empty());

        role.close();

        assertThat(started.get(0).closed).isTrue();
        assertThatThrownBy(() -> role.activate(OptionalInt.empty())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shutting down");
    }
}
