package io.rdmarepl.harness.demo;

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
 * The whole path end to end: two real servers, Debezium, the shm ring, the applier; replica = primary. Then act
 * two: the coordinator, a client on the failover-aware DataSource, SIGKILL of the primary, the replica promoted.
 */
class DemoIT {

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void mixedWorkloadReplicatesExactlyThenFailsOverToTheReplica() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = HarnessCommand.commandLine();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));

        int code = commandLine.execute("demo", "--seconds", "3", "--warmup-seconds", "1", "--clients", "2", "--probe-rate", "100", "--json");

        JsonNode report = new ObjectMapper().readTree(out.toString());
        assertThat(report.get("mismatches")).as("%s differences: %s\nstderr: %s", report.get("difference_count"),
                report.get("differences"), err).isEmpty();
        assertThat(report.get("tables")).extracting(t -> t.get("table").asText()).contains("public.all_types", "public.probe");
        assertThat(report.get("tables")).allSatisfy(t -> assertThat(t.get("replica_rows").asLong()).isEqualTo(t.get("primary_rows").asLong()));
        // Known coordinator bug (detection on a loaded host: a slow probe plus a stale heartbeat reading fail over a
        // healthy primary, in about 1 trial of 10 here): such a run measures nothing, so it is reported, not judged.
        assertThat(report.path("failover").path("transitions_before_kill").asInt()).as("the coordinator failed over the healthy primary before the kill: %s", report.path("failover").path("history")).isZero();
        assertThat(report.get("pass").asBoolean()).as("report: %s", report).isTrue();
        assertThat(code).isZero();
        assertThat(report.get("transactions").asLong()).isGreaterThan(100);
        assertThat(report.get("rolled_back").asLong()).isPositive();
        assertThat(report.get("rows_compared").asLong()).isGreaterThan(10_000);
        assertThat(report.get("lag_us").get("samples").asLong()).isPositive();
        assertThat(report.get("lag_us").get("p50").asLong()).isPositive();

        JsonNode failover = report.get("failover");
        assertThat(failover.path("error").isMissingNode()).as("act two: %s", failover).isTrue();
        assertThat(failover.get("pass").asBoolean()).as("act two: %s", failover).isTrue();
        assertThat(failover.get("mode").asText()).isEqualTo("async");
        assertThat(failover.get("new_primary").asText()).isEqualTo("pgb");
        assertThat(failover.get("epoch").asInt()).isEqualTo(2);
        assertThat(failover.get("writable_primaries_after").asInt()).isEqualTo(1);
        assertThat(failover.get("missing_on_new_primary").asInt()).isZero();
        assertThat(failover.get("acknowledged").get("old_primary").asInt()).isPositive();
        assertThat(failover.get("acknowledged").get("new_primary").asInt()).isPositive();
        assertThat(failover.get("lost_acknowledged").asInt()).as("async loses at most what was in flight")
                .isLessThan(failover.get("acknowledged").get("old_primary").asInt());
        assertThat(failover.get("detection_ms").asLong()).isNotNegative();
        assertThat(failover.get("promotion_ms").asLong()).isNotNegative();
        assertThat(failover.get("rto_ms").asLong()).isGreaterThanOrEqualTo(failover.get("kill_to_promoted_ms").asLong() - 2); // ms clocks
        assertThat(failover.get("history").toString()).contains("SUSPECT", "FENCING", "DRAINING", "PROMOTING", "PROMOTED");
    }
}
