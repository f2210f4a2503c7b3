package io.rdmarepl.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.cli.RdmareplCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/** The whole path end to end: two real servers, Debezium, the shm ring, the applier; replica = primary. */
class DemoIT {

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void mixedWorkloadReplicatesExactly() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = RdmareplCommand.commandLine();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));

        int code = commandLine.execute("demo", "--seconds", "4", "--warmup-seconds", "1", "--clients", "2", "--probe-rate", "100", "--json");

        JsonNode report = new ObjectMapper().readTree(out.toString());
        assertThat(report.get("mismatches")).as("stderr: %s", err).isEmpty();
        assertThat(report.get("pass").asBoolean()).isTrue();
        assertThat(code).isZero();
        assertThat(report.get("transactions").asLong()).isGreaterThan(100);
        assertThat(report.get("rolled_back").asLong()).isPositive();
        assertThat(report.get("rows_compared").asLong()).isGreaterThan(10_000);
        assertThat(report.get("lag_us").get("samples").asLong()).isPositive();
        assertThat(report.get("lag_us").get("p50").asLong()).isPositive();
    }
}
