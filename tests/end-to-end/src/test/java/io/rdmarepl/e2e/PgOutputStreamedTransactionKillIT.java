package io.rdmarepl.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.compare.ComparisonReport;
import io.rdmarepl.testsupport.compare.ReplicaComparison;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * {@code kill -9} of a native shipper while a large transaction is being streamed to it in progress
 * ({@code logical_decoding_work_mem} at its minimum, so the walsender streams it long before it commits), a
 * subtransaction of it rolled back: the new shipper receives the transaction again from the slot, the commit ships it
 * whole, the rolled-back part never reaches the replica, and nothing is lost or applied twice.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PgOutputStreamedTransactionKillIT {
    private static final int ROWS = 20_000;

    private Replication replication;

    @BeforeAll
    void startServers() throws Exception {
        replication = Replication.create("streamkill");
        replication.primary().execute("ALTER SYSTEM SET logical_decoding_work_mem = '64kB'");
        replication.primary().execute("SELECT pg_reload_conf()");
        replication.shipperSetting("capture.engine", "pgoutput");
    }

    @AfterAll
    void stopEverything() {
        if (replication != null) {
            replication.close();
        }
    }

    @Test
    void shouldApplyAStreamedTransactionWholeAfterTheShipperWasKilledInTheMiddleOfIt() throws Exception {
        replication.startBoth();
        try (Connection c = replication.primary().connect("postgres"); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.execute("INSERT INTO history SELECT 1, g % 100, g, repeat('streamed ', 10) FROM generate_series(1, " + ROWS + ") g");
            s.execute("SAVEPOINT undone");
            s.execute("INSERT INTO history SELECT -1, g % 100, g, 'rolled back' FROM generate_series(1, 5000) g");
            s.execute("ROLLBACK TO SAVEPOINT undone");
            awaitStreamed();
            replication.shipper().kill();
            replication.startShipper();
            replication.awaitSlotActive();
            s.execute("INSERT INTO history SELECT 2, g % 100, g, 'after the kill' FROM generate_series(1, 1000) g");
            c.commit();
        }
        replication.awaitCaughtUp();

        ComparisonReport report = ReplicaComparison.between(replication.primary(), replication.replica()).run();
        assertThat(report.equal()).as("replica = primary after a kill inside a streamed transaction\n%s\n%s", report,
                replication.diagnostics()).isTrue();
        assertThat(Replication.queryLong(replication.replica(), "SELECT count(*) FROM history WHERE tx = 1")).isEqualTo(ROWS);
        assertThat(Replication.queryLong(replication.replica(), "SELECT count(*) FROM history WHERE tx = -1"))
                .as("rows of the rolled-back subtransaction").isZero();
    }

    /** Waits until the walsender streamed part of the open transaction to the shipper (pg_stat_replication_slots). */
    private void awaitStreamed() {
        Await.until("the open transaction streamed to the shipper (stream_bytes of the slot)", Duration.ofSeconds(60), () -> {
            replication.checkAlive();
            return Replication.queryLong(replication.primary(),
                    "SELECT COALESCE(sum(stream_bytes), 0) FROM pg_stat_replication_slots WHERE slot_name = 'rdmarepl'");
        }, bytes -> bytes > 0);
    }
}
