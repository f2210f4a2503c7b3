package io.rdmarepl.coordinator.store;

import static io.rdmarepl.coordinator.store.StateStore.NOTHING_STORED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.testsupport.Await;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The lock between two coordinator processes, as the kernel enforces it (a JVM only sees its own locks). */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class FileStateStoreLockIT {
    @TempDir
    Path dir;
    private Process other;

    @AfterEach
    void stopTheOtherCoordinator() throws InterruptedException {
        if (other != null) {
            other.destroyForcibly().waitFor();
        }
    }

    @Test
    void shouldFollowWhileAnotherProcessHoldsTheLockAndTakeOverWhenItDies() throws Exception {
        Path file = dir.resolve("main.json");
        other = startCoordinator(file);
        assertThat(firstLine(other)).isEqualTo("leader=true");

        try (FileStateStore store = FileStateStore.open(file)) {
            assertThat(store.isLeader()).isFalse();
            assertThatThrownBy(() -> store.compareAndSet(NOTHING_STORED, States.initial("main")))
                    .isInstanceOf(StateStoreException.class)
                    .hasMessage("state file " + file + " is locked by another coordinator (pid " + other.pid() + " holds "
                            + file + ".lock); only the leader writes");
            assertThat(store.describe()).isEqualTo("file " + file + " (follower, locked by pid " + other.pid() + ")");

            other.destroyForcibly().waitFor(); // a crash: no close(), the kernel releases the lock

            Await.until("the surviving coordinator leads", Duration.ofSeconds(10), store::isLeader);
            assertThat(store.compareAndSet(NOTHING_STORED, States.initial("main"))).isZero();
        }
    }

    @Test
    void shouldLetAnotherProcessLeadAfterThisOneCloses() throws Exception {
        Path file = dir.resolve("main.json");
        try (FileStateStore store = FileStateStore.open(file)) {
            store.compareAndSet(NOTHING_STORED, States.initial("main"));
            other = startCoordinator(file);
            assertThat(firstLine(other)).isEqualTo("leader=false");
            other.destroyForcibly().waitFor();
        }

        other = startCoordinator(file);
        assertThat(firstLine(other)).isEqualTo("leader=true");
    }

    @Test
    void shouldKeepTheLockWhenAFollowerInTheSameProcessCloses() throws Exception {
        Path file = dir.resolve("main.json");
        try (FileStateStore leader = FileStateStore.open(file)) {
            // POSIX drops all of a process's locks on a file when any descriptor of it closes
            FileStateStore.open(file).close();

            other = startCoordinator(file);
            assertThat(firstLine(other)).as("another process sees the lock still held").isEqualTo("leader=false");
            assertThat(leader.isLeader()).isTrue();
        }
    }

    private static Process startCoordinator(Path file) throws IOException {
        return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), LockHoldingCoordinator.class.getName(), file.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
    }

    private static String firstLine(Process process) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        return out.readLine();
    }
}
