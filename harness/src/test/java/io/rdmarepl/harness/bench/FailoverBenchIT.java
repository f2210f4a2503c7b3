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

/**
 * One real trial of {@code rdmarepl bench failover}: two embedded servers, shipper, applier and coordinator,
 * a client writing through the failover-aware DataSource, SIGKILL of the primary; and PostgreSQL's physical
 * standby promoted beside it. Checks the JSON it promises and that exactly one writable primary is left.
 */
class FailoverBenchIT {

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldFailOverOnceAndLeaveExactlyOneWritablePrimary() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = HarnessCommand.commandLine();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));

        int code = commandLine.execute("bench", "failover", "--trials", "1", "--json");

        JsonNode report = new ObjectMapper().readTree(out.toString());
        // Known coordinator bug (detection on a loaded host: a slow probe plus a stale heartbeat reading fail over a
        // healthy primary, in about 1 trial of 10 here): such a run measures nothing, so it is reported, not judged.
        assertThat(report.path("failovers_before_kill").asInt()).as("the coordinator failed over the healthy primary before the kill: %s", report.path("per_trial").path(0).path("error")).isZero();
        assertThat(report.path("per_trial").path(0).path("error").isMissingNode()).as("trial error: %s", report.path("per_trial")).isTrue();
        assertThat(code).as("report %s\nstderr: %s", report, err).isZero();
        assertThat(report.get("pass").asBoolean()).isTrue();
        assertThat(report.get("mode").asText()).isEqualTo("async");
        assertThat(report.get("trials").asInt()).isEqualTo(1);
        for (String figure : new String[] {"detection_ms", "promotion_ms", "rto_ms"}) {
            JsonNode spread = report.get(figure);
            for (String field : new String[] {"min", "median", "p99", "max"}) {
                assertThat(spread.get(field).isNumber()).as("%s.%s in %s", figure, field, report).isTrue();
            }
            assertThat(spread.get("min").asDouble()).as(figure).isGreaterThanOrEqualTo(0);
        }
        assertThat(report.get("rto_ms").get("min").asDouble()).as("RTO covers detection").isGreaterThanOrEqualTo(
                report.get("kill_to_detection_ms").get("min").asDouble());
        assertThat(report.get("lost_acknowledged").isInt()).isTrue();
        assertThat(report.get("writable_primaries_after").toString()).isEqualTo("[1]");
        JsonNode trial = report.get("per_trial").get(0);
        assertThat(trial.get("new_primary").asText()).isEqualTo("pgb");
        assertThat(trial.get("missing_on_new_primary").asInt()).isZero();
        assertThat(trial.get("acknowledged").get("new_primary").asInt()).isPositive();
        assertThat(trial.get("killed_at_monotonic_ns").asLong()).isPositive();
        if (trial.get("history").get(0).get("reason").asText().contains("its shipper saw its postmaster exit")) {
            // the shipper runs beside the primary here and watches its postmaster: the failover trusts what it saw
            assertThat(trial.get("message").asText()).as("fenced without trying SQL").contains("pga's postmaster exited (its shipper saw: process ")
                    .doesNotContain("pga unreachable");
        }

        JsonNode reference = report.get("reference");
        assertThat(reference.get("name").asText()).isEqualTo("postgresql physical standby, pg_ctl promote");
        if (reference.has("unavailable")) {
            assertThat(reference.get("unavailable").asText()).isNotBlank();
        } else {
            assertThat(reference.get("promote_to_first_write_ms").get("median").asDouble()).isPositive();
            assertThat(reference.get("base_backup").asText()).contains("pg_backup_start");
        }
    }
}
