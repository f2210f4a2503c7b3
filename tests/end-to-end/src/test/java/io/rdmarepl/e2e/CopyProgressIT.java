package io.rdmarepl.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.cli.RdmareplCommand;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.compare.ComparisonReport;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/**
 * An initial copy as an operator watches it: shipper, applier and coordinator as processes, the copy held part way
 * (a session on the replica locks a table the copy must empty, so the ring fills and the shipper waits), and while it
 * is held, {@code rdmarepl status} prints a line for it with both sessions' tables, and the shipper's log has its
 * periodic progress line. Released, the copy completes, the replica equals the primary and the line is gone.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CopyProgressIT {
    private static final int ROWS = 60_000;

    private Replication replication;

    @BeforeAll
    void startServers() throws Exception {
        replication = Replication.create("copyprogress", servers -> {
            for (var server : new io.rdmarepl.testsupport.PostgresServer[] {servers.primary(), servers.replica()}) {
                server.execute(Workload.SCHEMA);
                server.execute("CREATE TABLE notes (id int PRIMARY KEY, note text)");
            }
            servers.primary().execute("INSERT INTO history SELECT -g, 1 + g % " + Workload.ACCOUNTS + ", g % 1000,"
                    + " repeat('seeded row ', 8) FROM generate_series(1, " + ROWS + ") g");
            servers.primary().execute("INSERT INTO notes SELECT g, repeat('note ', 12) || g FROM generate_series(1, " + ROWS + ") g");
            servers.primary().execute("ANALYZE");
        });
        replication.shipperSetting("snapshot.mode", "initial");
        replication.shipperSetting("snapshot.chunk.bytes", Integer.toString(256 << 10));
        replication.shipperSetting("snapshot.parallel.tables", "2");
    }

    @AfterAll
    void stopEverything() {
        if (replication != null) {
            replication.close();
        }
    }

    @Test
    void statusAndTheShipperLogShowTheCopyWhileItRuns() throws Exception {
        String coordinator;
        try (Connection hold = replication.replica().connect("postgres"); Statement lock = hold.createStatement()) {
            hold.setAutoCommit(false);
            lock.execute("LOCK TABLE history IN ACCESS EXCLUSIVE MODE"); // the copy's first chunk empties it: apply waits
            replication.startApplier();
            replication.startShipper();
            coordinator = replication.adminBase(replication.startCoordinator(Map.of()));

            String status = Await.until("rdmarepl status shows the copy with both sessions' tables", Duration.ofSeconds(60),
                    () -> status(coordinator), s -> s.contains("copying public.history (") && s.contains("public.notes ("));
            assertThat(status).containsPattern("(?m)^copy     0 of 4 tables done, [0-9,]+ of ~120,050 rows, [0-9.]+ MB,"
                    + " [0-9,]+ rows/s, [0-9.]+ MB/s, ETA [0-9]+ s; copying public\\.(history|notes) \\([0-9,]+ of ~60,000 rows,"
                    + " [0-9.]+ MB\\), public\\.(history|notes) \\([0-9,]+ of ~60,000 rows, [0-9.]+ MB\\)$");
            String line = Await.until("the shipper's periodic progress line", Duration.ofSeconds(30),
                    () -> replication.shipper().log().lines().filter(l -> l.contains("initial copy: 0 of 4 tables done")).findFirst()
                            .orElse(null), l -> l != null);
            assertThat(line).contains("copying public.");
            replication.checkAlive();
            hold.rollback();
        }
        replication.awaitSlotActive();
        replication.awaitCaughtUp();
        ComparisonReport tables = replication.compare();
        assertThat(tables.equal()).as("replica = primary after the copy\n%s\n%s", tables, replication.diagnostics()).isTrue();
        Await.until("rdmarepl status without a copy line once it is done", Duration.ofSeconds(10), () -> status(coordinator),
                s -> s.contains("last decision") && !s.contains("\ncopy "));
        assertThat(replication.shipper().log()).contains("initial copy shipped: 4 tables, 120050 rows");
    }

    private static String status(String coordinator) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine command = RdmareplCommand.commandLine();
        command.setOut(new PrintWriter(out));
        command.setErr(new PrintWriter(err));
        int code = command.execute("status", "--coordinator", coordinator);
        assertThat(code).as("rdmarepl status: %s", err).isZero();
        return out.toString();
    }
}
