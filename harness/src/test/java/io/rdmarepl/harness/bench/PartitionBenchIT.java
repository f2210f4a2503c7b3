package io.rdmarepl.harness.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.harness.HarnessCommand;
import io.rdmarepl.testsupport.net.NetworkNamespaces;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/**
 * One trial of {@code rdmarepl bench partition}'s scenario 7 (scenario 1's cut and failover, then the old primary back
 * for 5 s before the runbook, async) on a cluster of network-namespace hosts; checks the exit code and the JSON it
 * promises. Skipped with one line without root (network namespaces).
 */
class PartitionBenchIT {

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void shouldReportOneTrialOfTheOldPrimaryComingBack() throws Exception {
        NetworkNamespaces.assumeAvailable();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = commandLine(out, err);

        int code = commandLine.execute("bench", "partition", "--scenarios", "7", "--trials", "1", "--mode", "async", "--json", "-");

        JsonNode report = new ObjectMapper().readTree(out.toString());
        JsonNode scenario = report.path("scenarios").path(0);
        JsonNode trial = scenario.path("per_trial").path(0);
        assertThat(trial.path("failure").isMissingNode()).as("trial failure: %s\nstderr: %s", trial.path("failure"), err).isTrue();
        assertThat(code).as("report %s\nstderr: %s", report, err).isZero();
        assertThat(report.get("pass").asBoolean()).isTrue();
        assertThat(scenario.get("scenario").asInt()).isEqualTo(7);
        assertThat(scenario.get("mode").asText()).isEqualTo("async");
        assertThat(scenario.get("trials").asInt()).isEqualTo(1);
        assertThat(scenario.get("lost_before_fault").asInt()).isZero();
        assertThat(scenario.get("overlapping_primaries").asInt()).isZero();
        assertThat(scenario.get("failovers").asInt()).isEqualTo(1);
        assertThat(scenario.get("healed").asBoolean()).isTrue();
        assertThat(trial.get("primary_before").asText()).isEqualTo("a");
        assertThat(trial.get("primary_after").asText()).isEqualTo("b");
        assertThat(trial.get("acknowledged_by_old_primary_after_heal").asLong()).as("a came back fenced: %s", trial).isZero();
        assertThat(trial.get("acknowledged_by_new_primary_after_heal").asLong()).as("the application wrote on b: %s", trial)
                .isPositive();
        assertThat(trial.get("primaries_after_heal").toString()).isEqualTo("[\"b\"]");
        assertThat(trial.get("notes").asText()).contains("5000 ms without the runbook");
    }

    @Test
    void shouldRefuseWrongOptionsWithOneLineEach() {
        StringWriter err = new StringWriter();
        CommandLine commandLine = commandLine(new StringWriter(), err);

        int code = commandLine.execute("bench", "partition", "--scenarios", "2,8", "--mode", "sometimes", "--trials", "0");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--scenarios 8: issue 21 has scenarios 1..7", "--mode sometimes: must be async, sync or both",
                "--trials 0: must be 1..100");
    }

    private static CommandLine commandLine(StringWriter out, StringWriter err) {
        CommandLine commandLine = HarnessCommand.commandLine();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        return commandLine;
    }
}
