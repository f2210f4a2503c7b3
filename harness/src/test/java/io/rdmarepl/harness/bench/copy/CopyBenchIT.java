package io.rdmarepl.harness.bench.copy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.harness.HarnessCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/**
 * The whole benchmark at scale 1 (100,011 rows), two rounds so both orders run: the JSON it promises, each system's
 * replica holding exactly the primary's rows, nothing left behind. Not its timings.
 */
class CopyBenchIT {

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldCopyWithBothSystemsAndReportRowsBytesAndSeconds() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = HarnessCommand.commandLine();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));

        int code = commandLine.execute("bench", "copy", "--scale", "1", "--rounds", "2", "--fsync", "off", "--json", "-");

        assertThat(code).as("stderr: %s\nstdout: %s", err, out).isZero();
        JsonNode report = new ObjectMapper().readTree(out.toString());
        assertThat(report.get("pass").asBoolean()).as("%s", report.get("problems")).isTrue();
        assertThat(report.get("scale").asInt()).isEqualTo(1);
        assertThat(report.get("rounds").asInt()).isEqualTo(2);
        JsonNode source = report.get("source");
        assertThat(source.get("rows").asLong()).isEqualTo(100_000 + 10 + 1);
        assertThat(source.get("tables").get("pgbench_accounts").asLong()).isEqualTo(100_000);
        assertThat(source.get("tables").get("pgbench_history").asLong()).isZero();
        assertThat(source.get("bytes").asLong()).isGreaterThan(10L << 20);

        JsonNode systems = report.get("systems");
        assertThat(systems).extracting(s -> s.get("name").asText()).containsExactly("rdmarepl", "postgresql");
        for (JsonNode system : systems) {
            String name = system.get("name").asText();
            assertThat(system.get("seconds").asDouble()).as(name).isPositive();
            assertThat(system.get("round_seconds")).as(name).hasSize(2);
            assertThat(system.get("rows").asLong()).as(name).isEqualTo(source.get("rows").asLong());
            assertThat(system.get("tables")).as(name).isEqualTo(source.get("tables"));
            assertThat(system.get("bytes").asLong()).as(name).isGreaterThan(10L << 20);
            assertThat(system.get("round_cpu_ms")).as(name).hasSize(2);
            assertThat(system.get("round_cpu_ms").get(0).has("total")).as(name).isTrue();
        }
        // rdmarepl's threads live in this JVM; PostgreSQL's table sync workers may start and end between two readings
        // of a copy this small, so only rdmarepl's account is sure to hold something
        for (JsonNode round : systems.get(0).get("round_cpu_ms")) {
            assertThat(round.get("total").asDouble()).as("rdmarepl's CPU").isPositive();
        }
        assertThat(systems.get(0).get("settings").get("capture_engine").asText()).isEqualTo("pgoutput");
        assertThat(systems.get(0).get("settings").get("snapshot.parallel.tables").asInt()).isEqualTo(2);
        assertThat(report.get("ratio").asDouble()).isPositive();
        for (String leftover : List.of("subscriptions", "replication_slots", "publications")) {
            assertThat(report.get("cleanup").get(leftover).asLong()).as(leftover).isZero();
        }
        JsonNode machine = report.get("machine");
        assertThat(machine.get("cores").asInt()).isPositive();
        assertThat(machine.get("postgresql").asText()).startsWith("17");
        assertThat(machine.get("fsync").asText()).isEqualTo("off");
        assertThat(err.toString()).contains("round 1/2, rdmarepl: copying").contains("round 2/2, postgresql: copied in");
        assertThat(err.toString().indexOf("round 2/2, postgresql")).as("round 2 runs the other order first")
                .isLessThan(err.toString().indexOf("round 2/2, rdmarepl"));
    }
}
