package io.rdmarepl.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.compare.ComparisonReport;
import io.rdmarepl.testsupport.compare.ReplicaComparison;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A workload none of our code writes: sysbench's standard OLTP tables (a {@code character(120)} and a
 * {@code character(60)} column in every row, a serial key) copied by {@code snapshot.mode=initial}, then
 * sysbench's own {@code oltp_write_only} and {@code oltp_read_write} clients (deletes and re-inserts of the same
 * key, index updates, non-index updates) writing to the primary through real {@code rdmarepl ship} and
 * {@code rdmarepl apply} processes. The replica must then equal the primary: every column of every row, and the
 * tables' sequences. The sysbench command comes from Debian's package ({@code .ci/run} installs it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class SysbenchWorkloadIT {
    private static final Logger LOG = LoggerFactory.getLogger(SysbenchWorkloadIT.class);
    private static final int TABLES = 3;
    private static final int TABLE_SIZE = 2_000;

    private Replication replication;

    @BeforeAll
    void startServers() throws Exception {
        replication = Replication.create("sysbench");
        // the replica gets sysbench's exact DDL from sysbench itself, then loses the rows: they arrive by the copy
        sysbench(replication.replica(), "oltp_common", "prepare");
        StringBuilder truncate = new StringBuilder("TRUNCATE ");
        for (int t = 1; t <= TABLES; t++) {
            truncate.append(t == 1 ? "" : ", ").append("sbtest").append(t);
        }
        replication.replica().execute(truncate + " RESTART IDENTITY");
        sysbench(replication.primary(), "oltp_common", "prepare");
        replication.shipperSetting("snapshot.mode", "initial");
    }

    @AfterAll
    void stopEverything() {
        if (replication != null) {
            replication.close();
        }
    }

    @Test
    void shouldLeaveTheReplicaEqualToThePrimaryAfterSysbenchsOwnOltpClients() throws Exception {
        replication.startBoth();
        String writeOnly = sysbench(replication.primary(), "oltp_write_only", "run");
        String readWrite = sysbench(replication.primary(), "oltp_read_write", "run");
        LOG.info("sysbench oltp_write_only:\n{}\nsysbench oltp_read_write:\n{}", summary(writeOnly), summary(readWrite));
        assertThat(writeOnly).contains("transactions:");
        replication.awaitCaughtUp();

        ComparisonReport report = ReplicaComparison.between(replication.primary(), replication.replica()).run();
        LOG.info("after sysbench: applier {}; {}", replication.applierCounts(), report);
        assertThat(report.equal()).as("replica = primary after sysbench's OLTP workloads\n%s\n%s", report,
                replication.diagnostics()).isTrue();
        assertThat(Replication.queryLong(replication.replica(), "SELECT count(*) FROM sbtest1"))
                .as("rows of sbtest1 on the replica").isEqualTo(TABLE_SIZE);
    }

    /** Runs sysbench's {@code script} {@code command} against {@code server}; fails with its output when it fails. */
    private String sysbench(PostgresServer server, String script, String command) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of(executable(), script, "--db-driver=pgsql",
                "--pgsql-host=" + PostgresServer.HOST, "--pgsql-port=" + server.port(), "--pgsql-user=" + PostgresServer.SUPERUSER,
                "--pgsql-db=postgres", "--tables=" + TABLES, "--table-size=" + TABLE_SIZE));
        if (command.equals("run")) {
            argv.addAll(List.of("--threads=4", "--time=8", "--report-interval=0", "--rand-seed=20261204"));
        }
        argv.add(command);
        Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("sysbench " + script + " " + command + " did not end within 120 s\n" + output);
        }
        if (process.exitValue() != 0) {
            throw new AssertionError("sysbench " + script + " " + command + " exited " + process.exitValue() + "\n" + output);
        }
        return output;
    }

    private static String executable() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path candidate = Path.of(dir, "sysbench");
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        throw new AssertionError("sysbench is not installed: this test runs sysbench's own OLTP clients"
                + " (Debian: apt-get install sysbench; .ci/run installs it)");
    }

    private static String summary(String output) {
        StringBuilder out = new StringBuilder();
        for (String line : output.split("\n")) {
            if (line.contains("transactions:") || line.contains("queries:") || line.contains("ignored errors:")) {
                out.append(line.strip()).append('\n');
            }
        }
        return out.toString();
    }
}
