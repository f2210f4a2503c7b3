package io.rdmarepl.applier.apply;

import static io.rdmarepl.applier.testing.Records.i4;
import static io.rdmarepl.applier.testing.Records.insert;
import static io.rdmarepl.applier.testing.Records.relation;
import static io.rdmarepl.applier.testing.Records.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.applier.testing.ApplierFixture;
import io.rdmarepl.applier.testing.Sql;
import io.rdmarepl.testsupport.Await;
import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A group that is full ends the applier's read of the ring: what follows stays in the ring until the group is applied.
 * When a poll read on past a full group, a backlog (an initial copy's chunks behind a slow replica) came into memory a
 * whole ring at a time, past {@link GroupLog#SPILL_ABOVE_BYTES} and into the spill file, while the replica waited.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FullGroupIT extends ReplicaPerClass {
    private static final String ROW_TEXT = "x".repeat(2048);

    @Test
    void shouldApplyEachFullGroupBeforeReadingTheTransactionsWaitingBehindIt() throws Exception {
        Sql.write(replica, "CREATE TABLE full_groups (id int PRIMARY KEY, payload text)");
        try (ApplierFixture f = ApplierFixture.start(replica, "full-groups", "apply.group.max.bytes", "1024");
             Connection blocker = replica.connect("postgres")) {
            f.feeder().send(relation(1, "full_groups", 'd', "id*", "payload"));
            blocker.setAutoCommit(false);
            try (Statement lock = blocker.createStatement()) {
                lock.execute("LOCK TABLE full_groups IN ACCESS EXCLUSIVE MODE");
            }
            // each transaction fills a group alone; the first one's apply waits on the lock while the rest queue up
            f.feeder().transaction(1, 10, insert(1, i4(1), text(ROW_TEXT)));
            Await.until("the first transaction read", DEADLINE, () -> {
                f.feeder().writer().feedback().refresh();
                return f.feeder().writer().feedback().consumerPosition();
            }, position -> position == f.feeder().writer().position());
            for (int tx = 2; tx <= 6; tx++) {
                f.feeder().transaction(tx, tx * 10L, insert(1, i4(tx), text(ROW_TEXT)));
            }
            blocker.rollback();
            f.awaitApplied(60);
        }
        assertThat(Sql.count(replica, "SELECT count(DISTINCT xmin::text) FROM full_groups"))
                .as("replica transactions for six transactions that each fill a group").isEqualTo(6);
    }
}
