package io.rdmarepl.shipper.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.testsupport.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipper's side of the lease with real guard processes, no database (the primary is a closed port: a guard
 * that had to fence would retry for ever, so the leases here are long): a guard is started and watches, one that runs
 * is adopted rather than doubled, one that dies while the lease counts is replaced, and a shipper refuses to start
 * when no guard can watch.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GuardedLeaseIT {
    private static final String LONG_LEASE_MS = "600000";
    @TempDir
    Path dir;
    private final List<Long> guards = new ArrayList<>();

    @AfterEach
    void endGuards() {
        guards.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }

    @Test
    void shouldStartAGuardThatWatchesAndGoesOnceTheLeaseIsReleased() {
        GuardedLease lease = GuardedLease.open(config("process", 1));
        lease.awaitGuard();
        long pid = guardPid(lease);
        assertThat(pid).isNotEqualTo(ProcessHandle.current().pid());
        assertThat(lease.status()).containsEntry("guard_alive", true).containsEntry("lease_state", "none");
        lease.countFromNow();
        Await.until("the lease counts in the file", Duration.ofSeconds(5), () -> read().readShipper().state(), s -> s == LeaseState.ARMED);

        lease.release();
        awaitGone(pid);
        assertThat(read().readShipper().state()).isEqualTo(LeaseState.RELEASED);
        assertThat(read().readGuard().fence()).isEqualTo(FenceState.NOT_NEEDED);
    }

    @Test
    void shouldAdoptTheGuardThatRunsAndTakeOverTheLeaseWithoutRenewingIt() {
        GuardedLease first = GuardedLease.open(config("process", 1));
        first.awaitGuard();
        first.lease().heard("standby a");
        long pid = guardPid(first);
        Await.until("the contact is in the file", Duration.ofSeconds(5), () -> read().readShipper().contact(), "standby a"::equals);
        ShipperRecord left = read().readShipper();
        first.abandon(); // a shipper that exits on a lost standby: the lease counts on

        GuardedLease second = GuardedLease.open(config("process", 1));
        second.awaitGuard();
        assertThat(guardPid(second)).as("the running guard, not a second one").isEqualTo(pid);
        assertThat(second.lease().armed()).isTrue();
        assertThat(second.lease().lastContactNs()).as("counts on from the last contact").isEqualTo(left.lastContactNs());
        second.countFromNow();
        assertThat(read().readShipper().lastContactNs()).as("a start renews nothing").isEqualTo(left.lastContactNs());
        assertThat(read().readShipper().pid()).isEqualTo(ProcessHandle.current().pid());

        second.release();
        awaitGone(pid);
    }

    @Test
    void shouldStartAnotherGuardWhenTheLastDiesWhileTheLeaseCounts() {
        GuardedLease lease = GuardedLease.open(config("process", 1));
        lease.awaitGuard();
        lease.countFromNow();
        long first = guardPid(lease);
        ProcessHandle.of(first).orElseThrow().destroyForcibly();

        long second = Await.until("another guard watches", Duration.ofSeconds(30), () -> read().readGuard(),
                g -> g.pid() != first && LeaseGuardMain.alive(g.pid())).pid();
        guards.add(second);
        lease.release();
        awaitGone(second);
    }

    @Test
    void shouldRefuseToStartWhenTheGuardCannotStart() {
        GuardedLease lease = GuardedLease.open(config("process", 1), List.of("-XX:+NoSuchOptionOfTheLeaseGuardTest"));
        assertThatThrownBy(lease::awaitGuard).isInstanceOf(IllegalStateException.class)
                .hasMessageMatching("the lease guard \\(pid \\d+\\) exited with code 1 before it watched .*rdmarepl-lease-primary \\(its lines"
                        + " are above\\); fence.lease.ms > 0 needs one");
        lease.abandon();
    }

    @Test
    void shouldRefuseToStartWithoutAGuardWhenTheGuardIsExternal() {
        assertThatThrownBy(() -> GuardedLease.open(config("external", 1))).isInstanceOf(IllegalStateException.class)
                .hasMessage("fence.guard=external, but no lease guard holds " + dir.resolve("rdmarepl-lease-primary.lock")
                        + " after 5 s: start it first (systemctl start rdmarepl-lease-guard, or rdmarepl lease-guard --config FILE), or set"
                        + " fence.guard=process");
    }

    @Test
    void shouldRefuseTheLeaseFileOfAnotherPrimaryWhileItsLeaseCounts() {
        GuardedLease lease = GuardedLease.open(config("process", 1));
        lease.awaitGuard();
        guardPid(lease);
        lease.lease().heard("standby a");
        lease.abandon();

        assertThatThrownBy(() -> GuardedLease.open(config("process", 2))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("rdmarepl-lease-primary is the lease of the primary at 127.0.0.1:1/postgres, and a lease guard"
                        + " watches it; this shipper's primary is 127.0.0.1:2/postgres. Two shippers with one source.name on this host?");
    }

    private ShipperConfig config(String guard, int port) {
        Properties p = new Properties();
        p.setProperty("standbys", "a");
        p.setProperty("standby.a.uri", "shm:///dev/shm/none");
        p.setProperty("database.host", "127.0.0.1");
        p.setProperty("database.port", Integer.toString(port));
        p.setProperty("fence.lease.ms", LONG_LEASE_MS);
        p.setProperty("fence.lease.dir", dir.toString());
        p.setProperty("fence.guard", guard);
        return ShipperConfig.load(p);
    }

    private long guardPid(GuardedLease lease) {
        long pid = (Long) lease.status().get("guard_pid");
        guards.add(pid);
        return pid;
    }

    private LeaseFile read() {
        try {
            return LeaseFile.map(dir.resolve("rdmarepl-lease-primary"), false);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void awaitGone(long pid) {
        Await.until("lease guard pid " + pid + " exits", Duration.ofSeconds(20), () -> LeaseGuardMain.alive(pid), alive -> !alive);
    }
}
