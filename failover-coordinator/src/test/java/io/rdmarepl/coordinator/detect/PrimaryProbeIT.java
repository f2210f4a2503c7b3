package io.rdmarepl.coordinator.detect;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The coordinator's JDBC probe against a real server whose probe backend hangs (SIGSTOP), as a dying server's
 * backends do for a while after their postmaster was killed.
 */
@Timeout(60)
class PrimaryProbeIT {
    private static final Duration TIMEOUT = Duration.ofMillis(25);
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    private static PostgresServer server;

    @BeforeAll
    static void start() {
        server = PostgresServer.primary(Durability.FAST);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void shouldCountAHungProbeAsOneFailurePerTimeoutItWaited() throws Exception {
        try (PrimaryProbe probe = new PrimaryProbe(server.jdbcUrl("postgres"), PostgresServer.SUPERUSER, "",
                Duration.ofMillis(5), TIMEOUT)) {
            awaitView(probe, "the probe answers", (v) -> v.failures() == 0 && v.walLsn() != null);
            long backend = probeBackendPid();

            signal("STOP", backend);
            try {
                ProbeView hung = awaitView(probe, "the hung probe counts as 3 failures", (v) -> v.failures() >= 3);
                assertThat(hung.error()).startsWith("no answer for ").endsWith("ms (timeout 25 ms)");
                assertThat(hung.failingForMs()).as("ms since the hung probe was sent").isGreaterThanOrEqualTo(75);
            } finally {
                signal("CONT", backend);
            }

            awaitView(probe, "the probe answers again", (v) -> v.failures() == 0);
        }
    }

    private static ProbeView awaitView(PrimaryProbe probe, String what, Predicate<ProbeView> done)
            throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        ProbeView view = probe.view();
        while (!done.test(view)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("expected within " + DEADLINE.toMillis() + " ms: " + what + "; last view " + view);
            }
            Thread.sleep(2);
            view = probe.view();
        }
        return view;
    }

    private static long probeBackendPid() throws SQLException {
        try (Connection connection = server.connect("postgres"); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(
                     "SELECT pid FROM pg_stat_activity WHERE application_name = 'rdmarepl-coordinator-probe'")) {
            assertThat(rows.next()).as("a backend serves the probe").isTrue();
            long pid = rows.getLong(1);
            assertThat(rows.next()).as("one backend serves the probe").isFalse();
            return pid;
        }
    }

    private static void signal(String signal, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertThat(kill.waitFor()).as("kill -" + signal + " " + pid).isZero();
    }
}
