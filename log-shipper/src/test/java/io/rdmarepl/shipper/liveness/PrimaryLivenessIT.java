package io.rdmarepl.shipper.liveness;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.shipper.ShipperTestProperties;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The long poll the coordinator holds on {@code GET /primary?wait_ms=}: {@link PrimaryLiveness#awaitPostmasterExit}
 * waits out its time while the primary runs, and returns as soon as the watch sees the SIGKILLed postmaster exit.
 * And the ping: a backend that stops answering makes the primary dead until it answers again; a session the
 * server ends is opened again.
 */
class PrimaryLivenessIT {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theWaitEndsAtTheTimeWhileThePrimaryRunsAndAtItsPostmastersExit() throws Exception {
        try (PostgresServer primary = PostgresServer.primary(Durability.FAST);
             PrimaryLiveness liveness = new PrimaryLiveness(config(primary), Duration.ofMillis(5))) {
            Await.until("the postmaster watched", Duration.ofSeconds(30), () -> liveness.postmasterStatus().pid() != null);
            assertThat(liveness.postmasterStatus().pid()).isEqualTo(primary.pid());
            assertThat(liveness.postmasterStatus().exited()).isFalse();
            assertThat(liveness.postmasterStatus().watch()).isEqualTo("watching");

            long startNs = System.nanoTime();
            liveness.awaitPostmasterExit(Duration.ofMillis(300));
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs)).as("held for its wait").isGreaterThanOrEqualTo(300);
            assertThat(liveness.postmasterExited()).isFalse();

            CompletableFuture<Long> heldForMs = new CompletableFuture<>();
            Thread held = new Thread(() -> {
                long heldNs = System.nanoTime();
                try {
                    liveness.awaitPostmasterExit(Duration.ofSeconds(20));
                    heldForMs.complete(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - heldNs));
                } catch (InterruptedException e) {
                    heldForMs.completeExceptionally(e);
                }
            }, "held-request");
            held.setDaemon(true);
            held.start();
            Await.until("the request held (its thread waiting for the exit), or answered", Duration.ofSeconds(10),
                    () -> held.getState() == Thread.State.TIMED_WAITING || heldForMs.isDone());
            assertThat(heldForMs).as("still held while the primary runs").isNotDone();
            ProcessHandle.of(primary.pid()).orElseThrow().destroyForcibly();
            assertThat(heldForMs.get(10, TimeUnit.SECONDS)).as("answered at the exit, not at the 20 s wait").isLessThan(10_000);
            assertThat(liveness.postmasterExited()).isTrue();
            assertThat(liveness.alive()).isFalse();
            assertThat(liveness.postmasterStatus().exit()).startsWith("process " + primary.pid() + " ");
            assertThat(liveness.postmasterStatus().watch()).isEqualTo("exited: " + liveness.postmasterStatus().exit());

            startNs = System.nanoTime();
            liveness.awaitPostmasterExit(Duration.ofSeconds(20));
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs)).as("exited already: no wait").isLessThan(1_000);
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aStoppedBackendIsDeadUntilItAnswersAndAnEndedSessionIsOpenedAgain() throws Exception {
        try (PostgresServer primary = PostgresServer.primary(Durability.FAST);
             Connection sql = primary.connect("postgres");
             PrimaryLiveness liveness = new PrimaryLiveness(config(primary), Duration.ofMillis(5))) {
            long first = awaitPingBackend(sql, 0);
            Await.until("alive", Duration.ofSeconds(10), liveness::alive);

            ProcessHandle backend = ProcessHandle.of(first).orElseThrow();
            signal("STOP", first);
            try {
                Await.until("dead while its backend does not answer", Duration.ofSeconds(10), () -> !liveness.alive());
            } finally {
                signal("CONT", first);
            }
            Await.until("alive again once it answers", Duration.ofSeconds(10), liveness::alive);
            assertThat(backend.isAlive()).as("the same session").isTrue();

            try (Statement statement = sql.createStatement()) {
                statement.execute("SELECT pg_terminate_backend(" + first + ")");
            }
            long second = awaitPingBackend(sql, first);
            assertThat(second).as("a new session").isNotEqualTo(first);
            Await.until("alive on the new session", Duration.ofSeconds(10), liveness::alive);
        }
    }

    /** The pid of the liveness session's backend, once there is one other than {@code not}. */
    private static long awaitPingBackend(Connection sql, long not) throws Exception {
        long[] pid = {0};
        Await.until("a liveness session other than " + not, Duration.ofSeconds(20), () -> {
            try (Statement statement = sql.createStatement();
                 ResultSet rs = statement.executeQuery("SELECT pid FROM pg_stat_activity WHERE application_name = '"
                         + PrimaryLiveness.APPLICATION_NAME + "' AND pid <> " + not)) {
                pid[0] = rs.next() ? rs.getLong(1) : 0;
            }
            return pid[0] != 0;
        });
        return pid[0];
    }

    private static void signal(String name, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
        assertThat(kill.waitFor()).as("kill -" + name + " " + pid).isZero();
    }

    private static ShipperConfig config(PostgresServer primary) {
        return ShipperConfig.load(ShipperTestProperties.of(primary, "shm:///dev/shm/rdmarepl-liveness-it"));
    }
}
