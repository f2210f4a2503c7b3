package io.rdmarepl.harness.bench.lag.catchup;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.harness.HarnessCommand;
import io.rdmarepl.harness.bench.lag.Endpoint;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresPairExtension;
import io.rdmarepl.testsupport.PostgresServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

/**
 * {@code bench lag --catch-up}, briefly, on two servers shared by the class (attached with --primary/--replica): one
 * round of 2 s at scale 1, rdmarepl and PostgreSQL's own each catching up on the same backlog into a replica that is then
 * compared with the primary row by row; and that comparison, shown to fail on planted defects. Not the timings.
 */
class CatchUpBenchIT {
    @RegisterExtension
    static final PostgresPairExtension POSTGRES = new PostgresPairExtension(Durability.FAST);

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void shouldCatchUpWithEverySystemIntoAReplicaEqualToThePrimaryAndLeaveNothingBehind() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = HarnessCommand.commandLine();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));

        int code = commandLine.execute("bench", "lag", "--catch-up", "2", "--rounds", "1", "--scale", "1", "--apply-workers", "1,2",
                "--primary", POSTGRES.primary().jdbcUrl("postgres"), "--replica", POSTGRES.replica().jdbcUrl("postgres"), "--json", "-");

        assertThat(code).as("stderr: %s\nstdout: %s", err, out).isZero();
        JsonNode report = new ObjectMapper().readTree(out.toString());
        assertThat(report.get("pass").asBoolean()).as("%s", report.get("problems")).isTrue();
        assertThat(report.get("mode").asText()).isEqualTo("catch-up");
        JsonNode backlog = report.get("backlogs").get(0);
        long transactions = backlog.get("transactions").asLong();
        assertThat(transactions).as("the load's transactions").isPositive();
        assertThat(backlog.get("wal_bytes").asLong()).isPositive();
        assertThat(backlog.get("primary_consistent").asBoolean()).isTrue();
        assertThat(backlog.get("primary").get("pgbench_history count").asLong()).as("one history row per transaction").isEqualTo(transactions);

        JsonNode catchUp = report.get("catch_up");
        assertThat(catchUp.get(0).get("name").asText()).isEqualTo("rdmarepl");
        assertThat(catchUp.get(0).get("apply_workers").asInt()).isEqualTo(1);
        assertThat(catchUp.get(0).get("transport").asText()).isEqualTo("shm");
        JsonNode postgresql = catchUp.get(catchUp.size() - 1);
        assertThat(postgresql.get("name").asText()).isEqualTo("postgresql");
        assertThat(postgresql.has("apply_workers")).as("rdmarepl only").isFalse();
        for (JsonNode system : catchUp) {
            String label = system.get("label").asText();
            assertThat(system.get("backlog_transactions").asLong()).as(label).isEqualTo(transactions);
            assertThat(system.get("apply_seconds").asDouble()).as(label).isPositive();
            assertThat(system.get("tx_per_s").asDouble()).as(label).isPositive();
            assertThat(system.get("replica_equal").asBoolean()).as(label).isTrue();
            assertThat(system.get("rounds")).as(label).hasSize(1);
            JsonNode check = system.get("rounds").get(0).get("check");
            assertThat(check.get("replica_equal").asBoolean()).as(label).isTrue();
            assertThat(check.get("tables_compared").asInt()).as(label).isEqualTo(TpcbTables.NAMES.size());
            // accounts, tellers, branches at scale 1, one history row per transaction, the marker: every row compared
            assertThat(check.get("rows_compared").asLong()).as(label).isEqualTo(100_000 + 10 + 1 + transactions + 1);
            assertThat(check.get("differences").asLong()).as(label).isZero();
        }
        assertThat(catchUp.get(0).get("tx_per_s_vs_postgresql").asDouble()).isPositive();
        assertThat(catchUp.get(0).get("rounds").get(0).get("details").get("transactions_applied").asLong()).isPositive();

        // apply.workers=2 runs once the applier has the key; until then it is listed as not run, with the reason
        Set<Integer> workers = new HashSet<>();
        catchUp.forEach(s -> {
            if (s.has("apply_workers")) {
                workers.add(s.get("apply_workers").asInt());
            }
        });
        for (JsonNode skipped : report.get("not_run")) {
            assertThat(skipped.get("system").asText()).isEqualTo("rdmarepl over shm, apply.workers=2");
            assertThat(skipped.get("reason").asText()).contains("apply.workers");
            workers.add(2);
        }
        assertThat(workers).containsExactlyInAnyOrder(1, 2);
        assertThat(report.get("not_run").isEmpty()).isEqualTo(ApplyWorkers.known());

        for (String leftover : List.of("subscriptions", "replication_slots", "publications", "databases")) {
            assertThat(report.get("cleanup").get(leftover).asLong()).as(leftover).isZero();
        }
        assertThat(count(POSTGRES.primary(), "SELECT count(*) FROM pg_replication_slots")).as("slots").isZero();
        assertThat(count(POSTGRES.replica(), "SELECT count(*) FROM pg_subscription")).as("subscriptions").isZero();
        assertThat(count(POSTGRES.replica(), "SELECT count(*) FROM pg_database WHERE datname LIKE 'rdmarepl%'")).isZero();
        assertThat(count(POSTGRES.primary(), "SELECT count(*) FROM pg_database WHERE datname LIKE 'rdmarepl%'")).isZero();
        JsonNode settings = report.get("settings");
        assertThat(settings.get("catch_up_seconds").asInt()).isEqualTo(2);
        assertThat(settings.get("scale").asInt()).isEqualTo(1);
        assertThat(settings.get("servers").asText()).isEqualTo("attached");
        JsonNode machine = report.get("machine");
        assertThat(machine.get("cores").asInt()).isPositive();
        assertThat(machine.get("postgresql").asText()).startsWith("17");
        assertThat(machine.has("load_avg_start")).isTrue();
        assertThat(err.toString()).contains("round 1/1, rdmarepl over shm, apply.workers=1: caught up in")
                .contains("round 1/1, postgresql logical (sync off): caught up in");
    }

    /** The check a pass rests on fails on a replica that differs only where sums and counts cannot see it. */
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void shouldNameEveryRowInWhichAReplicaDiffers() {
        Endpoint primary = Endpoint.of(POSTGRES.primary());
        Endpoint replica = Endpoint.of(POSTGRES.replica());
        primary.execute("postgres", "CREATE DATABASE planted_primary");
        replica.execute("postgres", "CREATE DATABASE planted_replica");
        try {
            TpcbTables.create(primary, "planted_primary", 1);
            TpcbTables.create(replica, "planted_replica", 1);
            String marker = "INSERT INTO catchup_marker VALUES (1, '2026-12-05 03:13:20.174701+00')";
            primary.execute("planted_primary", marker);
            replica.execute("planted_replica", marker);

            ReplicaCheck same = ReplicaCheck.between(primary, "planted_primary", replica, "planted_replica");

            assertThat(same.equal()).as("%s", same.listed()).isTrue();
            assertThat(same.rows()).isEqualTo(100_000 + 10 + 1 + 1);

            // balances moved between two accounts (counts and sums unchanged), and the marker missing
            replica.execute("planted_replica", "UPDATE pgbench_accounts SET abalance = 7 WHERE aid = 11;"
                    + "UPDATE pgbench_accounts SET abalance = -7 WHERE aid = 12; DELETE FROM catchup_marker");

            ReplicaCheck planted = ReplicaCheck.between(primary, "planted_primary", replica, "planted_replica");

            assertThat(planted.equal()).isFalse();
            assertThat(planted.differences()).isEqualTo(3);
            assertThat(String.join("\n", planted.listed())).contains("(aid)=(11)").contains("(aid)=(12)").contains("catchup_marker");
            assertThat(planted.describe()).startsWith("REPLICA DIFFERS, 3 difference(s)");
        } finally {
            primary.execute("postgres", "DROP DATABASE IF EXISTS planted_primary WITH (FORCE)");
            replica.execute("postgres", "DROP DATABASE IF EXISTS planted_replica WITH (FORCE)");
        }
    }

    private static long count(PostgresServer server, String sql) throws Exception {
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
