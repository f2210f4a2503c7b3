package io.rdmarepl.harness.bench.lag;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.harness.HarnessCommand;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresPair;
import io.rdmarepl.testsupport.PostgresServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/**
 * The whole benchmark, briefly: two servers (fsync on), rdmarepl over shm and PostgreSQL's own logical replication
 * one after the other, and the JSON it promises; then attached to servers the test started, which it checks itself
 * for what the benchmark left behind.
 */
class LagBenchIT {

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldMeasureBothSystemsAndLeaveNothingBehind() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = HarnessCommand.commandLine();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));

        java.nio.file.Path chart = java.nio.file.Files.createTempFile("rdmarepl-bench-lag-", ".png");
        int code = commandLine.execute("bench", "lag", "--seconds", "2", "--warmup-seconds", "1", "--rounds", "1", "--probe-rate", "100",
                "--json", "-", "--chart", chart.toString());

        JsonNode report = new ObjectMapper().readTree(out.toString());
        assertThat(code).as("problems: %s\nstderr: %s", report.get("problems"), err).isZero();
        assertThat(java.nio.file.Files.size(chart)).as("chart written").isGreaterThan(1000);
        java.nio.file.Files.delete(chart);
        assertThat(report.get("pass").asBoolean()).isTrue();
        JsonNode systems = report.get("systems");
        assertThat(systems).hasSize(2);
        assertThat(systems.get(0).get("name").asText()).isEqualTo("rdmarepl");
        assertThat(systems.get(0).get("transport").asText()).isEqualTo("shm");
        assertThat(systems.get(1).get("name").asText()).isEqualTo("postgresql");
        assertThat(systems.get(1).get("synchronous_commit").asText()).isEqualTo("off");
        for (JsonNode system : systems) {
            String name = system.get("name").asText();
            assertThat(system.get("rounds").asInt()).as(name).isEqualTo(1);
            assertThat(system.get("samples").asLong()).as(name).isBetween(100L, 260L); // 100/s for 2 s
            assertThat(system.get("missing_probes").asLong()).as(name).isZero();
            for (String p : new String[] {"p50", "p90", "p99", "p999", "max"}) {
                assertThat(system.get("lag_us").get(p).asLong()).as(name + " lag " + p).isPositive();
                assertThat(system.get("commit_us").get(p).asLong()).as(name + " commit " + p).isPositive();
            }
            assertThat(system.get("lag_us").get("p50").asLong()).isLessThanOrEqualTo(system.get("lag_us").get("max").asLong());
            assertThat(system.get("throughput_tps").asLong()).as(name).isBetween(50L, 110L);
        }
        assertThat(systems.get(0).get("stages").get("commit_to_ring_ms").get("count").asLong()).isPositive();
        assertThat(report.get("ratios").get(0).get("lag").get("p50").asDouble()).isPositive();
        JsonNode cleanup = report.get("cleanup");
        assertThat(cleanup.get("subscriptions").asLong()).as("subscriptions left on the replica").isZero();
        assertThat(cleanup.get("replication_slots").asLong()).as("slots left on the primary").isZero();
        assertThat(cleanup.get("publications").asLong()).as("publications left on the primary").isZero();
        JsonNode settings = report.get("settings");
        assertThat(settings.get("seconds").asInt()).isEqualTo(2);
        assertThat(settings.get("probe_rate").asInt()).isEqualTo(100);
        assertThat(settings.get("fsync").asText()).isEqualTo("on");
        JsonNode machine = report.get("machine");
        assertThat(machine.get("cores").asInt()).isPositive();
        assertThat(machine.get("postgresql").asText()).startsWith("17");
        assertThat(machine.get("fsync").asText()).isEqualTo("on");
        assertThat(machine.has("load_avg_start")).isTrue();
        assertThat(machine.has("load_avg_end")).isTrue();
        assertThat(machine.get("jdk").asText()).isNotBlank();
        assertThat(err.toString()).contains("round 1/1, rdmarepl over shm: measuring").contains("postgresql logical (sync off): measuring");
    }

    /**
     * {@code --mode sync}, briefly: rdmarepl async and sync, PostgreSQL's synchronous logical replication and a physical
     * synchronous standby, each synchronous one listed only in its turn; every synchronous commit returned only after the
     * replica applied it, and nothing is left behind, synchronous_standby_names included (it would block every commit).
     */
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void shouldMeasureSyncCommitLatencyOfEverySystemAndClearSynchronousStandbyNames() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = HarnessCommand.commandLine();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));

        int code = commandLine.execute("bench", "lag", "--mode", "sync", "--seconds", "2", "--warmup-seconds", "1", "--rounds", "1",
                "--probe-rate", "50", "--json", "-");

        JsonNode report = new ObjectMapper().readTree(out.toString());
        assertThat(code).as("problems: %s\nstderr: %s\nstdout: %s", report.get("problems"), err, out).isZero();
        assertThat(report.get("pass").asBoolean()).isTrue();
        JsonNode systems = report.get("systems");
        assertThat(systems).hasSize(4);
        String[] labels = {"rdmarepl async over shm", "rdmarepl sync over shm", "postgresql logical sync", "postgresql physical sync"};
        for (int i = 0; i < labels.length; i++) {
            JsonNode system = systems.get(i);
            assertThat(system.get("label").asText()).isEqualTo(labels[i]);
            assertThat(system.get("synchronous").asBoolean()).as(labels[i]).isEqualTo(i > 0);
            assertThat(system.get("commit_samples").asLong()).as(labels[i]).isBetween(10L, 130L); // at most 50/s for 2 s
            assertThat(system.get("commit_us").get("p50").asLong()).as(labels[i]).isPositive();
            assertThat(system.get("missing_probes").asLong()).as(labels[i]).isZero();
        }
        for (int i = 1; i <= 2; i++) {
            JsonNode system = systems.get(i);
            assertThat(system.get("not_synchronous")).as(labels[i]).isEmpty();
            JsonNode path = system.get("commit_path");
            assertThat(path.get("samples").asLong()).as(labels[i]).isEqualTo(system.get("samples").asLong());
            assertThat(path.get("returned_before_applied").asLong()).as(labels[i] + ": commits wait for the apply").isZero();
            assertThat(path.get("sent_to_applied_us").get("p50").asLong()).as(labels[i]).isPositive();
            assertThat(path.get("applied_to_returned_us").get("p50").asLong()).as(labels[i]).isPositive();
        }
        assertThat(systems.get(1).get("stages").get("commit_to_ring_ms").get("count").asLong()).isPositive();
        JsonNode legs = systems.get(1).get("commit_path");
        // a probe splits into legs only when exactly one ring event and one replica event fall in its window (the
        // timers name transactions by commit time); how many do depends on the host's load (23 of ~100 seen in CI-like
        // runs), so only none, which means the timers are not wired, fails
        assertThat(legs.get("legs_samples").asLong()).as("rdmarepl's probes in four legs").isPositive();
        assertThat(legs.get("legs_us").get("replica_committed_to_returned").get("p50").asLong()).isPositive();
        assertThat(systems.get(2).get("commit_path").has("legs_us")).as("PostgreSQL has no such timers").isFalse();
        assertThat(systems.get(3).get("lag_us").isNull()).as("a physical standby stamps no lag").isTrue();
        assertThat(systems.get(3).get("transport").asText()).isEqualTo("physical");
        JsonNode target = report.get("target").get(0);
        assertThat(target.get("system").asText()).isEqualTo("rdmarepl sync over shm");
        assertThat(target.get("versus").asText()).isEqualTo("postgresql logical sync");
        assertThat(target.get("met").isBoolean()).isTrue();
        assertThat(report.get("not_run")).isEmpty();
        JsonNode cleanup = report.get("cleanup");
        assertThat(cleanup.get("synchronous_standby_names").asText()).as("nothing left for commits to wait for").isEmpty();
        assertThat(cleanup.get("replication_slots").asLong()).as("the physical standby's slot too").isZero();
        assertThat(cleanup.get("subscriptions").asLong()).isZero();
        JsonNode settings = report.get("settings");
        assertThat(settings.get("mode").asText()).isEqualTo("sync");
        assertThat(settings.get("client_synchronous_commit").asText()).isEqualTo("remote_apply");
        assertThat(settings.get("native_sync").asText()).isEqualTo("on");
        assertThat(err.toString()).contains("rdmarepl sync over shm: measuring").contains("postgresql physical sync: measuring");
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldAttachToRunningServersUnderLoadAndDropEverythingItCreated() throws Exception {
        try (PostgresPair servers = PostgresPair.start(Durability.DURABLE)) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CommandLine commandLine = HarnessCommand.commandLine();
            commandLine.setOut(new PrintWriter(out));
            commandLine.setErr(new PrintWriter(err));

            int code = commandLine.execute("bench", "lag", "--primary", servers.primary().jdbcUrl("postgres"),
                    "--replica", servers.replica().jdbcUrl("postgres"), "--seconds", "1", "--warmup-seconds", "1", "--rounds", "1",
                    "--probe-rate", "50", "--load", "40", "--clients", "2", "--rows-per-tx", "3", "--json", "-");

            assertThat(code).as("stderr: %s", err).isZero();
            JsonNode report = new ObjectMapper().readTree(out.toString());
            assertThat(report.get("settings").get("servers").asText()).isEqualTo("attached");
            for (JsonNode system : report.get("systems")) {
                assertThat(system.get("samples").asLong()).as(system.get("label").asText()).isPositive();
                assertThat(system.get("throughput_tps").asLong()).as("probes and load").isGreaterThan(60L);
            }
            assertThat(count(servers.replica(), "SELECT count(*) FROM pg_subscription")).as("subscriptions").isZero();
            assertThat(count(servers.primary(), "SELECT count(*) FROM pg_replication_slots")).as("slots").isZero();
            assertThat(count(servers.primary(), "SELECT count(*) FROM pg_database WHERE datname LIKE 'rdmarepl\\_lag%'")).isZero();
            assertThat(count(servers.replica(), "SELECT count(*) FROM pg_database WHERE datname LIKE 'rdmarepl\\_lag%'")).isZero();
        }
    }

    private static long count(PostgresServer server, String sql) throws Exception {
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
