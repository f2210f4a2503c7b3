package io.rdmarepl.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.compare.ComparisonReport;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code snapshot.mode=initial} through real processes: a primary that already holds rows, a replica that holds a
 * stale one, the workload writing (and updating and deleting the pre-existing keyless rows) while the copy runs,
 * and the shipper killed part way through the copy. The restarted shipper drops the slot and copies again; at the
 * end the replica equals the primary, so the seam lost nothing and applied nothing twice, and the copy cut short
 * left nothing behind.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class InitialCopyIT {
    private static final Logger LOG = LoggerFactory.getLogger(InitialCopyIT.class);
    private static final long SEEDED_ROWS = 150_000;

    private Replication replication;

    @BeforeAll
    void startServers() throws Exception {
        replication = Replication.create("initialcopy");
        replication.primary().execute("INSERT INTO history SELECT -g, 1 + g % " + Workload.ACCOUNTS
                + ", g % 1000, repeat('seeded row ', 8) FROM generate_series(1, " + SEEDED_ROWS + ") g");
        replication.primary().execute("UPDATE accounts SET balance = aid * 100");
        replication.replica().execute("INSERT INTO history VALUES (-999999999, 1, 0, 'stale: not on the primary')");
        replication.shipperSetting("snapshot.mode", "initial");
        replication.shipperSetting("snapshot.chunk.bytes", Integer.toString(256 << 10));
    }

    @AfterAll
    void stopEverything() {
        if (replication != null) {
            replication.close();
        }
    }

    @Test
    void shouldCopyExistingRowsThenStreamWithoutGapOrDuplicateEvenWhenTheCopyIsCutShort() throws Exception {
        Workload workload = new Workload(replication.primary(), Duration.ofMillis(10));
        workload.start(2);
        try {
            replication.startApplier();
            replication.startShipper();
            long copiedWhenKilled = awaitCopyPartWayThrough();
            replication.shipper().kill();
            LOG.info("shipper killed with {} of {} seeded rows on the replica", copiedWhenKilled, SEEDED_ROWS);
            replication.startShipper();
            replication.awaitSlotActive();
            workload.awaitCommitted(workload.committed() + 100, Duration.ofSeconds(60));
        } catch (Exception | AssertionError e) {
            workload.stop();
            throw e;
        }
        workload.stop();
        replication.awaitCaughtUp();

        ComparisonReport tables = replication.compare();
        LOG.info("initial copy: {} transactions committed during it; applier {}; {}", workload.committed(),
                replication.applierCounts(), tables);
        assertThat(tables.equal()).as("replica = primary after a copy cut short, a second copy and streaming\n%s\n%s",
                tables, replication.diagnostics()).isTrue();
        assertThat(Replication.queryLong(replication.replica(), "SELECT count(*) FROM history WHERE tx < 0"))
                .as("seeded rows on the replica (the workload deletes a few)").isGreaterThan(SEEDED_ROWS - workload.committed());

        replication.shipper().stop(Duration.ofSeconds(20));
        replication.startShipper();
        replication.awaitSlotActive();
        replication.awaitCaughtUp();
        assertThat(replication.shipper().log()).as("a restart after the copy streams on, it does not copy again")
                .contains("hold its initial copy").doesNotContain("initial copy of");
        ComparisonReport afterRestart = replication.compare();
        assertThat(afterRestart.equal()).as("replica = primary after the shipper's restart\n%s", afterRestart).isTrue();
    }

    /** Waits until the first copy has put some, not all, seeded rows on the replica; returns how many. */
    private long awaitCopyPartWayThrough() throws Exception {
        AtomicLong copied = new AtomicLong();
        Await.until("a seeded row on the replica", Duration.ofSeconds(90), () -> {
            copied.set(Replication.queryLong(replication.replica(), "SELECT count(*) FROM history WHERE tx < 0 AND tx > -999999999"));
            assertThat(copied.get()).as("the copy finished before the test could cut it short; seed more rows")
                    .isLessThan(SEEDED_ROWS - 1000);
            if (copied.get() > 0) {
                return true;
            }
            replication.checkAlive();
            return false;
        }, replication::diagnostics);
        return copied.get();
    }
}
