package io.rdmarepl.coordinator.detect;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The probe against a real server whose probe backend is frozen (SIGSTOP): its kept connection hangs, as a killed
 * primary's orphaned backend was seen to. Told the postmaster exited, the probe gives up the hung query at once and
 * goes on with new connections, instead of waiting out its network timeout (ten probe timeouts).
 */
class PrimaryProbeIT {
    private static final Duration PROBE_TIMEOUT = Duration.ofMillis(300); // network timeout: 3 s

    private static PostgresServer server;
    /** What the primary's shipper reports of its postmaster, as the probe reads it. */
    private final java.util.concurrent.atomic.AtomicBoolean exited = new java.util.concurrent.atomic.AtomicBoolean();
    private static Connection admin;

    @BeforeAll
    static void start() throws Exception {
        server = PostgresServer.primary(Durability.FAST);
        admin = server.connect("postgres");
    }

    @AfterAll
    static void stop() throws Exception {
        admin.close();
        server.close();
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void shouldAbortAProbeHungOnItsKeptConnectionWhenThePostmasterIsReportedGone() throws Exception {
        withFrozenProbeBackend(PROBE_TIMEOUT, probe -> {
            await("the frozen probe overdue", () -> probe.view().failures() > 0);
            assertThat(probe.view().error()).startsWith("no answer within 300 ms");

            long toldNs = System.nanoTime();
            reportExit(probe);
            await("an answer on a new connection", () -> probe.view().failures() == 0);
            long recoveredMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - toldNs);
            assertThat(recoveredMs).as("recovered %d ms after the news, not after the 3 s network timeout", recoveredMs)
                    .isLessThan(1_500);
        });
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void shouldNotCountAProbeItAbortedBeforeItsTimeoutAsFailed() throws Exception {
        withFrozenProbeBackend(Duration.ofSeconds(10), probe -> {
            await("a probe hung on the frozen backend", () -> probe.view().sinceSuccessMs() > 200);
            reportExit(probe);
            // the aborted probe failed because the coordinator gave it up, not because the server did: the next
            // one, on a new connection, answers, and no failure may show in between (one would fail the primary
            // over next to a postmaster exit report)
            int mostFailures = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (probe.view().sinceSuccessMs() > 100) {
                mostFailures = Math.max(mostFailures, probe.view().failures());
                assertThat(System.nanoTime() - deadline).as("an answer on a new connection within 20 s").isNegative();
            }
            assertThat(mostFailures).as("failures seen between the abort and the next answer").isZero();
        });
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldTellOfEachFailureAndProbeAtOnceWhenThePostmasterIsReportedGone() throws Exception {
        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        java.util.concurrent.atomic.AtomicInteger told = new java.util.concurrent.atomic.AtomicInteger();
        try (PrimaryProbe probe = new PrimaryProbe("jdbc:postgresql://127.0.0.1:" + closedPort + "/postgres", PostgresServer.SUPERUSER,
                "", Duration.ofSeconds(5), PROBE_TIMEOUT, exited::get, told::incrementAndGet)) {
            await("the first probe refused", () -> told.get() == 1);
            assertThat(probe.view().failures()).isEqualTo(1);
            Await.holds("no second probe: the next one waits for its interval (5 s)", Duration.ofMillis(100), () -> told.get() == 1);

            long toldNs = System.nanoTime();
            reportExit(probe);
            await("a second probe, without waiting out the interval", () -> told.get() == 2);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - toldNs)).isLessThan(2_000);
            assertThat(probe.view().failures()).isEqualTo(2);
        }
    }

    /** What the shipper's report does when it brings the news: says so from now on, and tells the probe. */
    private void reportExit(PrimaryProbe probe) {
        exited.set(true);
        probe.suspect();
    }

    private interface ProbeCheck {
        void run(PrimaryProbe probe) throws Exception;
    }

    /** A probe of the shared server, its kept connection's backend frozen (SIGSTOP) while {@code check} runs. */
    private void withFrozenProbeBackend(Duration probeTimeout, ProbeCheck check) throws Exception {
        try (PrimaryProbe probe = new PrimaryProbe(server.jdbcUrl("postgres"), PostgresServer.SUPERUSER, "",
                Duration.ofMillis(5), probeTimeout, exited::get, () -> { })) {
            await("a first answer", () -> probe.view().walLsn() != null);
            long backend = probeBackend(admin);
            signal("STOP", backend);
            try {
                check.run(probe);
            } finally {
                signal("CONT", backend);
            }
        }
    }

    private static long probeBackend(Connection admin) throws Exception {
        try (Statement statement = admin.createStatement();
             ResultSet rows = statement.executeQuery("SELECT pid FROM pg_stat_activity WHERE application_name = "
                     + "'rdmarepl-coordinator-probe' ORDER BY backend_start DESC LIMIT 1")) {
            assertThat(rows.next()).as("the probe's backend is listed").isTrue();
            return rows.getLong(1);
        }
    }

    private static void signal(String signal, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertThat(kill.waitFor()).as("kill -%s %d", signal, pid).isZero();
    }

    private static void await(String what, Await.Condition condition) {
        Await.until(what, Duration.ofSeconds(20), condition);
    }
}
