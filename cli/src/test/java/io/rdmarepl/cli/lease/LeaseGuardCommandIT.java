package io.rdmarepl.cli.lease;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.shipper.lease.GuardedLease;
import io.rdmarepl.shipper.lease.LeaseFile;
import io.rdmarepl.shipper.lease.LeaseState;
import io.rdmarepl.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rdmarepl lease-guard} as systemd runs it, a process of its own beside shippers with
 * {@code fence.guard=external}: they adopt it, it watches on across their clean stops (and a lease file made anew),
 * a second one refuses to run, and SIGTERM stops it. The primary is a closed port and the lease long: nothing here is fenced.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LeaseGuardCommandIT {
    @TempDir
    Path dir;
    private Process guard;

    @AfterEach
    void stopGuard() {
        if (guard != null) {
            guard.destroyForcibly();
        }
    }

    @Test
    void shouldGuardOneShipperAfterAnotherUntilStoppedAndRefuseToRunTwice() throws Exception {
        Path config = dir.resolve("shipper.properties");
        Files.writeString(config, "standbys=a\nstandby.a.uri=shm:///dev/shm/none\ndatabase.host=127.0.0.1\ndatabase.port=1\n"
                + "fence.lease.ms=600000\nfence.guard=external\nfence.lease.dir=" + dir + "\n");
        guard = start(config, dir.resolve("guard-1.log"));
        ShipperConfig settings = ShipperConfig.load(config);

        GuardedLease first = GuardedLease.open(settings); // waits for the guard to hold its lock
        first.awaitGuard();
        assertThat(first.status()).containsEntry("guard_pid", guard.pid()).containsEntry("mode", "external");
        first.countFromNow();
        first.release();
        Await.until("the guard saw the clean stop", Duration.ofSeconds(10), () -> LeaseFile.map(settings.leaseFile(), false).readGuard(),
                g -> g.watchedState() == LeaseState.RELEASED);
        assertThat(guard.isAlive()).as("started apart, it watches on for the next shipper").isTrue();

        Files.delete(settings.leaseFile()); // the next shipper creates it anew: the guard must watch the new file
        GuardedLease second = GuardedLease.open(settings);
        second.awaitGuard();
        assertThat(second.status()).containsEntry("guard_pid", guard.pid());
        second.release();

        Process another = start(config, dir.resolve("guard-2.log"));
        assertThat(another.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(another.exitValue()).isEqualTo(1);
        assertThat(Files.readString(dir.resolve("guard-2.log"))).contains("rdmarepl: another lease guard (pid " + guard.pid() + ") holds "
                + settings.leaseFile() + ".lock: one guard per lease file; stop that one first");

        guard.destroy(); // SIGTERM
        assertThat(guard.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.readString(dir.resolve("guard-1.log"), StandardCharsets.UTF_8))
                .startsWith("rdmarepl lease-guard: " + settings.leaseFile() + ", the lease of primary (127.0.0.1:1/postgres)");
    }

    private static Process start(Path config, Path log) throws Exception {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), "io.rdmarepl.cli.RdmareplCommand", "lease-guard",
                "--config", config.toString());
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }
}
