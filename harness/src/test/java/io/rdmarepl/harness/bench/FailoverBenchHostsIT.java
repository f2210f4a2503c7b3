package io.rdmarepl.harness.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.harness.HarnessCommand;
import io.rdmarepl.testsupport.net.NetworkNamespaces;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * One trial of {@code rdmarepl bench failover --layout hosts} in each mode: the roles as processes on network-namespace hosts, the
 * primary's host on a CPU of its own. Checks the exit code and the JSON it promises. Skipped with one line without
 * root (network namespaces) or with fewer than 2 CPUs.
 */
class FailoverBenchHostsIT {

    /** In sync mode also: sync was on at the kill as the shipper and the primary saw it, and nothing acknowledged was lost. */
    @ParameterizedTest(name = "--mode {0}")
    @ValueSource(strings = {"async", "sync"})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void shouldFailOverOnceOnHostsOfTheirOwn(String mode) throws Exception {
        Assumptions.assumeTrue(HostsLayout.allowedCpus().size() >= 2,
                () -> "--layout hosts skipped: needs 2 CPUs, this process may use " + HostsLayout.allowedCpus());
        NetworkNamespaces.assumeAvailable();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = HarnessCommand.commandLine();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));

        int code = commandLine.execute("bench", "failover", "--layout", "hosts", "--mode", mode, "--trials", "1", "--warmup-ms", "500",
                "--write-on-ms", "200", "--json");

        assertThat(HostsLayout.allowedCpus()).as("the bench gives this JVM its CPUs back").hasSizeGreaterThanOrEqualTo(2);
        JsonNode report = new ObjectMapper().readTree(out.toString());
        JsonNode trial = report.path("per_trial").path(0);
        assertThat(trial.path("error").isMissingNode()).as("trial error: %s\nstderr: %s", trial.path("error"), err).isTrue();
        assertThat(code).as("report %s\nstderr: %s", report, err).isZero();
        assertThat(report.get("pass").asBoolean()).isTrue();
        assertThat(report.get("layout").asText()).isEqualTo("hosts");
        assertThat(report.get("cpus").get("primary_host_cpu").asInt()).isNotEqualTo(report.get("cpus").get("other_cpu").asInt());
        assertThat(report.get("mode").asText()).isEqualTo(mode);
        if (mode.equals("sync")) {
            JsonNode atKill = trial.path("sync_at_kill");
            assertThat(atKill.path("sync_state").asText()).as("the shipper's sync state at the kill: %s", trial).isEqualTo("sync");
            assertThat(atKill.path("primary_sync_state").asText()).as("the primary's view at the kill: %s", trial).isEqualTo("sync");
            assertThat(atKill.path("flush_within_replica").asBoolean()).as("%s", trial).isTrue();
            assertThat(report.get("lost_acknowledged").asInt()).as("sync mode: nothing acknowledged lost").isZero();
        }
        assertThat(report.get("trials").asInt()).isEqualTo(1);
        for (String figure : new String[] {"detection_ms", "kill_to_detection_ms", "promotion_ms", "kill_to_promoted_ms",
                "kill_to_client_switch_ms", "rto_ms"}) {
            for (String field : new String[] {"min", "median", "p99", "max"}) {
                assertThat(report.get(figure).get(field).isNumber()).as("%s.%s in %s", figure, field, report).isTrue();
            }
        }
        assertThat(report.get("rto_ms").get("min").asDouble()).as("RTO covers detection").isGreaterThanOrEqualTo(
                report.get("kill_to_detection_ms").get("min").asDouble());
        assertThat(report.get("writable_primaries_after").toString()).isEqualTo("[1]");
        assertThat(report.get("failovers_before_kill").asInt()).isZero();
        assertThat(trial.get("new_primary").asText()).isEqualTo(HostsLayout.STANDBY);
        assertThat(trial.get("missing_on_new_primary").asInt()).isZero();
        assertThat(trial.get("acknowledged").get("new_primary").asInt()).isPositive();
        assertThat(report.get("reference").get("unavailable").asText()).contains("--layout hosts");
    }

    @Test
    void refusesWhatTheLayoutsDoNotDoWithOneLine() {
        StringWriter err = new StringWriter();
        CommandLine commandLine = HarnessCommand.commandLine();
        commandLine.setOut(new PrintWriter(new StringWriter()));
        commandLine.setErr(new PrintWriter(err));

        assertThat(commandLine.execute("bench", "failover", "--rehearse")).isEqualTo(2);
        assertThat(err.toString()).contains("--rehearse: with --layout hosts only");
    }
}
