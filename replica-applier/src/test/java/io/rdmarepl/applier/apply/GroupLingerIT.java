package io.rdmarepl.applier.apply;

import static io.rdmarepl.applier.testing.Records.i4;
import static io.rdmarepl.applier.testing.Records.insert;
import static io.rdmarepl.applier.testing.Records.relation;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.applier.testing.ApplierFixture;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.applier.testing.Records;
import io.rdmarepl.applier.testing.Sql;
import io.rdmarepl.format.record.ChangeRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
/**
 * When the applier applies what it read ({@link GroupTiming}): a quiet stream at once, a busy one's next group after a
 * linger spent asleep on a timer (no doorbell rung meanwhile), and never lingering while the shipper awaits the
 * acknowledgement. On a real replica fed through a real shm ring; one server for the class.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GroupLingerIT extends ReplicaPerClass {
    @Test
    void shouldLetABusyStreamsNextGroupLingerWhileAQuietOneAppliesAtOnce() throws Exception {
        try (ApplierFixture f = lingeringApplier("lingering")) {
            f.feeder().send(relation(1, "lingering", 'd', "id*")).transaction(1, 10, insert(1, i4(1)));
            Await.equalTo("a quiet stream's transaction applied well inside the linger", java.time.Duration.ofMillis(500),
                    () -> f.status().appliedLsn(), 10L);
            awaitRead(f);
            long busyEnd = applyOneBusyGroup(f, 2);

            f.feeder().transaction(100, busyEnd + 10, insert(1, i4(100)));
            Await.holds("the next transaction of a busy stream waits for more", java.time.Duration.ofMillis(700),
                    () -> f.status().appliedLsn() == busyEnd);
            f.awaitApplied(busyEnd + 10);
        }
    }

    @Test
    void shouldLingerOnATimerSoTransactionsArrivingMeanwhileRingNoDoorbell() throws Exception {
        try (ApplierFixture f = lingeringApplier("lingering_quietly")) {
            assertThat(f.feeder().writer().hasDoorbell()).as("shm rings have a doorbell").isTrue();
            long busyEnd = busyStream(f, "lingering_quietly");

            // the first transaction may find the idle applier asleep on the doorbell; the next ones find it lingering
            f.feeder().transaction(100, busyEnd + 10, insert(1, i4(100)));
            awaitRead(f);
            long rings = f.feeder().writer().doorbellRings();
            for (int tx = 101; tx <= 105; tx++) {
                f.feeder().transaction(tx, busyEnd + 10L * (tx - 99), insert(1, i4(tx)));
                awaitRead(f); // read while the group still lingers: woken by its timer, not by a ring
            }
            assertThat(f.status().appliedLsn()).as("the group still lingers").isEqualTo(busyEnd);
            assertThat(f.feeder().writer().doorbellRings()).as("doorbell rings while the group lingered").isEqualTo(rings);
            f.awaitApplied(busyEnd + 60);
        }
    }

    @Test
    void shouldNotLingerWhileTheShipperAwaitsTheAcknowledgement() throws Exception {
        try (ApplierFixture f = lingeringApplier("lingering_awaited")) {
            long busyEnd = busyStream(f, "lingering_awaited"); // the next group would linger a second

            f.feeder().transaction(100, busyEnd + 10, insert(1, i4(100)));
            awaitRead(f);
            assertThat(f.status().appliedLsn()).as("read, and lingering while nobody awaits it").isEqualTo(busyEnd);
            // as a sync-mode shipper does: it sleeps until the standby's next feedback, its sleep word odd meanwhile,
            // and takes each feedback in before it sleeps again
            java.util.concurrent.atomic.AtomicBoolean awaiting = new java.util.concurrent.atomic.AtomicBoolean(true);
            Thread shipper = new Thread(() -> {
                while (awaiting.get()) {
                    f.feeder().writer().feedback().refresh();
                    f.feeder().writer().sleepUntilFeedback(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(50));
                }
            }, "awaiting-shipper");
            shipper.start();
            try {
                Await.equalTo("an awaited transaction applied well inside the linger", java.time.Duration.ofMillis(500),
                        () -> f.status().appliedLsn(), busyEnd + 10);
            } finally {
                awaiting.set(false);
                shipper.join();
            }
        }
    }

    @Test
    void shouldTakeAWorkersCommittedSegmentAtOnceNotAtTheEndOfTheApplyThreadsSleep() throws Exception {
        Sql.write(replica, "CREATE TABLE collected (id int PRIMARY KEY)");
        // the apply thread sleeps up to a second on the ring's doorbell while its workers apply
        try (ApplierFixture f = ApplierFixture.start(replica, "collected", "apply.workers", "2",
                "apply.idle.max.park.us", "1000000")) {
            f.feeder().send(relation(1, "collected", 'd', "id*")).transaction(1, 10, insert(1, i4(1)));
            f.awaitApplied(10);
            for (int tx = 2; tx <= 4; tx++) {
                long commitLsn = tx * 10L;
                f.feeder().transaction(tx, commitLsn, insert(1, i4(tx)));
                Await.equalTo("transaction " + tx + " reported applied well inside the apply thread's sleep",
                        java.time.Duration.ofMillis(600), () -> f.status().appliedLsn(), commitLsn);
            }
        }
    }

    /** An applier whose busy stream's group lingers a second (a group waits five at most), on a fresh table {@code table}. */
    private static ApplierFixture lingeringApplier(String table) {
        Sql.write(replica, "CREATE TABLE " + table + " (id int PRIMARY KEY)");
        return ApplierFixture.start(replica, table.replace('_', '-'), "apply.group.linger.us", "1000000",
                "apply.group.max.ms", "5000");
    }

    /** Sends {@code table}'s relation, then one busy group from transaction 1 on ({@link #applyOneBusyGroup}). */
    private static long busyStream(ApplierFixture f, String table) {
        f.feeder().send(relation(1, table, 'd', "id*"));
        awaitRead(f);
        return applyOneBusyGroup(f, 1);
    }

    /** Waits until the applier read everything written to its ring. */
    private static void awaitRead(ApplierFixture f) {
        Await.until("the applier read the ring", DEADLINE, () -> {
            f.feeder().writer().feedback().refresh();
            return f.feeder().writer().feedback().consumerPosition();
        }, position -> position == f.feeder().writer().position());
    }

    /**
     * Applies {@link GroupTiming#BUSY_GROUP_TRANSACTIONS} transactions, published at once, as one group, from
     * transaction {@code firstTx} on (row ids as the transactions'), so the stream is busy and the next group lingers.
     * A poll may catch them half written (a frame is readable before the publish) and apply them as two groups, the
     * last not busy, so that the next batch applies at once: the batch is sent again until one lands as one group.
     *
     * @return the commit LSN of the group's last transaction, once applied
     */
    private static long applyOneBusyGroup(ApplierFixture f, int firstTx) {
        for (int attempt = 0; ; attempt++) {
            double groupsBefore = groupsApplied(f);
            int from = firstTx + attempt * GroupTiming.BUSY_GROUP_TRANSACTIONS;
            int to = from + GroupTiming.BUSY_GROUP_TRANSACTIONS - 1;
            List<ChangeRecord> busy = new ArrayList<>();
            for (int tx = from; tx <= to; tx++) {
                busy.addAll(Records.transaction(tx, tx * 10L, List.of(insert(1, i4(tx)))));
            }
            f.feeder().send(busy);
            f.awaitApplied(to * 10L);
            if (groupsApplied(f) - groupsBefore == 1) {
                return to * 10L;
            }
            assertThat(to).as("transactions sent before one batch landed as one group (ids below the trials' 100)").isLessThan(90);
        }
    }

    private static double groupsApplied(ApplierFixture f) {
        return f.registry().get("rdmarepl.applier.groups").counter().count();
    }
}
