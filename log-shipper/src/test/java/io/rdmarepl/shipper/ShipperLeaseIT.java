package io.rdmarepl.shipper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.shipper.role.RoleState;
import io.rdmarepl.shipper.role.RunningShipper;
import io.rdmarepl.shipper.role.InitialRole;
import io.rdmarepl.shipper.role.ShipperRole;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.Stall;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shipper cut off from its standby (and from any coordinator) for longer than fence.lease.ms fences itself:
 * shipping stops, and its lease guard (a process of its own) makes the primary refuse writes, client sessions that
 * turned read-only off included. While the standby answers, nothing happens. A primary that does not answer the
 * fence is tried again until it does. A restart that waits for a hidden standby keeps the lease the coordinator renews.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShipperLeaseIT {
    private static PostgresServer primary;
    @TempDir
    static Path leaseDir;

    @BeforeAll
    static void startPrimary() {
        primary = PostgresServer.builder("lease_primary").durability(Durability.FAST).start();
        primary.execute("CREATE TABLE t (id int PRIMARY KEY)");
    }

    @AfterAll
    static void stopPrimary() {
        if (primary != null) {
            primary.close();
        }
    }

    @AfterEach
    void writableAgain() {
        primary.execute("ALTER SYSTEM RESET default_transaction_read_only");
        primary.execute("SELECT pg_reload_conf()");
    }

    @Test
    void aShipperThatHearsFromNobodyFencesItselfAndThePrimaryEvenSessionsThatTurnedReadOnlyOff() throws Exception {
        try (RingCollector standby = new RingCollector(1 << 20); Shipper shipper = start(standby);
             Connection client = primary.connect("postgres"); Statement writes = client.createStatement()) {
            writes.execute("SET default_transaction_read_only = off"); // an application that insists on writing
            // no event says "did not fence": watched for several leases (300 ms) with the standby answering
            Await.holds("the shipper streaming and the primary writable", Duration.ofMillis(1000),
                    () -> "streaming".equals(shipper.status().get("state")) && "off".equals(primary.show("default_transaction_read_only")));
            writes.execute("INSERT INTO t VALUES (1)");

            @SuppressWarnings("unchecked")
            Map<String, Object> guard = (Map<String, Object>) shipper.status().get("lease_guard");
            assertThat(guard).containsEntry("guard_alive", true).containsEntry("lease_state", "armed").containsEntry("mode", "process");
            assertThat((Long) guard.get("guard_pid")).as("a process of its own").isNotEqualTo(ProcessHandle.current().pid());

            standby.slowDown(TimeUnit.SECONDS.toNanos(30)); // the standby stops reading: no feedback any more
            await("the self-fence is done", () -> "done".equals(shipper.selfFenceStatus().get("state")));
            // the guard process fences; the shipper learns it from the lease file a moment later
            await("the shipper reports itself fenced", () -> "fenced".equals(shipper.status().get("state")));
            assertThat((String) shipper.status().get("fenced_reason")).startsWith("self-fenced: no word from a standby or the coordinator");
            assertThat(primary.show("default_transaction_read_only")).isEqualTo("on");
            assertThatThrownBy(() -> writes.execute("INSERT INTO t VALUES (2)")).as("its session was ended")
                    .isInstanceOf(SQLException.class);
            assertThat(shipper.healthy()).isFalse();
        }
    }

    @Test
    void aSelfFenceThePrimaryDoesNotAnswerIsRetriedUntilItDoesAndACoordinatorsFenceDoesNotStopIt() throws Exception {
        try (RingCollector standby = new RingCollector(1 << 20); Shipper shipper = start(standby); Stall stall = new Stall()) {
            await("streaming", () -> "streaming".equals(shipper.status().get("state")));
            shipper.fence("fenced through the admin endpoint: fenced by the coordinator"); // stops shipping, not the clients
            List<Long> postgres = Stall.postgres(primary.pid());
            stall.stop(postgres);
            try {
                standby.slowDown(TimeUnit.SECONDS.toNanos(30));
                await("an attempt failed", () -> "retrying".equals(shipper.selfFenceStatus().get("state")));
            } finally {
                stall.resume(postgres);
            }
            await("the self-fence is done once the primary answers", () -> "done".equals(shipper.selfFenceStatus().get("state")));
            assertThat((Integer) shipper.selfFenceStatus().get("attempts")).isGreaterThanOrEqualTo(2);
            assertThat((String) shipper.selfFenceStatus().get("last_error")).isNotEmpty();
            Map<String, Object> status = shipper.status();
            assertThat(status.get("fenced_reason")).as("the coordinator's reason stands").isEqualTo(
                    "fenced through the admin endpoint: fenced by the coordinator");
            assertThat(primary.show("default_transaction_read_only")).isEqualTo("on");
        }
    }

    /**
     * Partition scenario 4 in sync mode: a standby a partition hides makes the shipper exit, and its restart waits to
     * connect to that standby. The coordinator still reaches the primary and renews the lease meanwhile; those renewals
     * must reach the lease the exited shipper left counting, or its guard fences a primary nobody is replacing, and
     * nothing unfences it once the partition heals.
     */
    @Test
    void aRestartWaitingForAHiddenStandbyKeepsTheLeaseTheCoordinatorRenews() throws Exception {
        try (RingCollector standby = new RingCollector(1 << 20)) {
            Shipper exited = Shipper.start(ShipperConfig.load(properties(standby.uri(), 1000)), new TextChangeEncoding(), Map.of(),
                    new SimpleMeterRegistry());
            await("streaming", () -> "streaming".equals(exited.status().get("state")));
            exited.abandon(); // exits on a lost standby: the lease keeps counting from the standby's last feedback
        }
        Path hidden = RingCollector.newPath(); // no ring there until the partition heals
        ShipperRole restarted = InitialRole.prepare(ShipperConfig.load(properties("shm://" + hidden, 1000)),
                (settings, leaseOpened) -> RunningShipper.of(Shipper.start(settings, new TextChangeEncoding(), Map.of(),
                        new SimpleMeterRegistry(), leaseOpened)),
                () -> false);
        ScheduledExecutorService coordinator = Executors.newSingleThreadScheduledExecutor();
        Thread start = new Thread(restarted::startAsConfigured, "test-shipper-start");
        try {
            coordinator.scheduleAtFixedRate(restarted::renewLease, 0, 100, TimeUnit.MILLISECONDS);
            start.start();
            Await.holds("the primary writable for three leases while the restart waits and the coordinator renews",
                    Duration.ofMillis(3000), () -> restarted.state() == RoleState.STARTING
                            && "off".equals(primary.show("default_transaction_read_only")));
            try (RingCollector healed = new RingCollector(hidden, 1 << 20)) {
                await("shipping once the standby is back", () -> restarted.state() == RoleState.SHIPPING);
                primary.execute("INSERT INTO t VALUES (3)");
                assertThat(primary.show("default_transaction_read_only")).isEqualTo("off");
                restarted.close();
            }
        } finally {
            coordinator.shutdownNow();
            restarted.close();
            start.join(TimeUnit.SECONDS.toMillis(30));
        }
    }

    private static void await(String what, Await.Condition condition) {
        Await.until(what, Duration.ofSeconds(30), condition);
    }

    private static Shipper start(RingCollector standby) {
        return Shipper.start(ShipperConfig.load(properties(standby.uri(), 300)), new TextChangeEncoding(), Map.of(), new SimpleMeterRegistry());
    }

    private static Properties properties(String standbyUri, long leaseMs) {
        Properties p = ShipperTestProperties.of(primary, standbyUri);
        p.setProperty("slot.name", "lease");
        p.setProperty("publication.name", "lease");
        p.setProperty("admin.address", "127.0.0.1:0");
        p.setProperty("fence.lease.ms", Long.toString(leaseMs));
        p.setProperty("fence.lease.dir", leaseDir.toString());
        return p;
    }
}
