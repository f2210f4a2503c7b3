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
 * One trial of {@code rdmarepl bench partition}'s cheapest scenario (2: the coordinator cut off from the primary for 5 s,
 * async) on a cluster of network-namespace hosts, and scenario 7 listed as not built; checks the exit code and the
 * JSON it promises. Skipped with one line without root (network namespaces).
 */
class PartitionBenchIT {

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void shouldReportOneTrialOfTheCoordinatorCutFromThePrimary() throws Exception {
        NetworkNamespaces.assumeAvailable();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = commandLine(out, err);

        int code = commandLine.execute("bench", "partition", "--scenarios", "2,7", "--trials", "1", "--mode", "async", "--json", "-");

        JsonNode report = new ObjectMapper().readTree(out.toString());
        JsonNode scenario = report.path("scenarios").path(0);
        JsonNode trial = scenario.path("per_trial").path(0);
        assertThat(trial.path("failure").isMissingNode()).as("trial failure: %s\nstderr: %s", trial.path("failure"), err).isTrue();
        assertThat(code).as("report %s\nstderr: %s", report, err).isZero();
        assertThat(report.get("pass").asBoolean()).isTrue();
        assertThat(scenario.get("scenario").asInt()).isEqualTo(2);
        assertThat(scenario.get("mode").asText()).isEqualTo("async");
        assertThat(scenario.get("trials").asInt()).isEqualTo(1);
        assertThat(scenario.get("lost_acknowledged").asInt()).isZero();
        assertThat(scenario.get("overlapping_primaries").asInt()).isZero();
        assertThat(scenario.get("failovers").asInt()).isZero();
        assertThat(scenario.get("healed").asBoolean()).isTrue();
        assertThat(scenario.get("self_fence_ms").get("median").isNull()).as("no failover, no self-fence: %s", scenario).isTrue();
        assertThat(trial.get("primary_before").asText()).isEqualTo("a");
        assertThat(trial.get("primary_after").asText()).isEqualTo("a");
        assertThat(trial.get("acknowledged").get(0).get("member").asText()).isEqualTo("a");
        assertThat(trial.get("acknowledged").get(0).get("acknowledged").asLong()).as("the client wrote: %s", trial).isGreaterThan(50);
        assertThat(trial.get("notes").asText()).contains("during the cut");
        JsonNode notBuilt = report.path("scenarios").path(1);
        assertThat(notBuilt.get("scenario").asInt()).isEqualTo(7);
        assertThat(notBuilt.get("trials").asInt()).isZero();
        assertThat(notBuilt.get("not_built").asText()).startsWith("not built yet");
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
