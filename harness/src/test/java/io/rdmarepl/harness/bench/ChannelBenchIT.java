package io.rdmarepl.harness.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.harness.HarnessCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/** Runs the real two-process channel benchmark briefly and checks the JSON it promises. */
class ChannelBenchIT {

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void shouldPrintOneJsonObjectWithFiguresFromBothProcesses() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = HarnessCommand.commandLine();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));

        int code = commandLine.execute("bench", "channel", "--seconds", "1", "--warmup-seconds", "0",
                "--rate", "20000", "--idle", "backoff", "--json");

        assertThat(code).as("stderr: %s", err).isZero();
        JsonNode report = new ObjectMapper().readTree(out.toString());
        assertThat(report.get("transport").asText()).isEqualTo("shm");
        assertThat(report.get("frame_size").asInt()).isEqualTo(256);
        JsonNode latency = report.get("latency_ns");
        for (String field : new String[] {"p50", "p90", "p99", "p999", "max"}) {
            assertThat(latency.get(field).asLong()).as(field).isPositive();
        }
        assertThat(latency.get("samples").asLong()).isBetween(15_000L, 20_001L);
        assertThat(latency.get("p50").asLong()).isLessThanOrEqualTo(latency.get("p99").asLong());
        assertThat(report.get("throughput").get("frames_per_s").asLong()).isPositive();
        assertThat(report.get("throughput").get("mb_per_s").asDouble()).isPositive();
        assertThat(report.get("alloc_bytes_per_frame").get("reader").isNumber()).isTrue();
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void shouldMeasureTheVerbsPathOverTheSoftwareProvider() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = HarnessCommand.commandLine();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));

        int code = commandLine.execute("bench", "channel", "--transport", "softrdma", "--seconds", "1", "--warmup-seconds", "0",
                "--rate", "10000", "--idle", "backoff", "--json");

        assertThat(code).as("stderr: %s", err).isZero();
        JsonNode report = new ObjectMapper().readTree(out.toString());
        assertThat(report.get("transport").asText()).isEqualTo("softrdma");
        assertThat(report.get("uri").asText()).startsWith("softrdma://127.0.0.1:");
        assertThat(report.get("provider").asText()).contains("emulation");
        JsonNode latency = report.get("latency_ns");
        assertThat(latency.get("samples").asLong()).isBetween(7_000L, 10_001L);
        assertThat(latency.get("p50").asLong()).isPositive();
        assertThat(report.get("throughput").get("frames_per_s").asLong()).isPositive();
    }
}
