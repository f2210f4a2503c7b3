package io.rdmarepl.applier.apply;

import static io.rdmarepl.applier.testing.Records.i4;
import static io.rdmarepl.applier.testing.Records.insert;
import static io.rdmarepl.applier.testing.Records.update;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.applier.testing.ApplierFixture;
import io.rdmarepl.applier.testing.Records;
import io.rdmarepl.applier.testing.Sql;
import io.rdmarepl.format.record.ChangeRecord;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Example;

/**
 * {@link ReorderedBatchingPropertyIT}'s model and examples against parallel apply: three workers, and segments of one
 * transaction (a group of two shared among twice the workers), so that many segments are in flight at once over twelve keys per table and meet often.
 * Segments that meet must wait for each other, every segment must commit in source order, a truncate runs alone, and
 * a failure found by a worker must end as the serial applier ends it (paused, naming the row).
 */
class ParallelApplyPropertyIT extends ReorderedBatchingPropertyIT {
    @Override
    protected String[] applierSettings() {
        return new String[] {"apply.workers", "3", "apply.group.max.transactions", "2"};
    }

    /**
     * The properties prove something about parallel apply only if segments do run side by side, and wait: 400 inserts
     * of distinct rows, then 300 updates of two rows, all sent at once.
     */
    @Example
    void segmentsRunSideBySideAndWaitOnlyForTheOnesTheyMeet() throws Exception {
        ApplierFixture applier = applier();
        double parallelBefore = segments(applier, "parallel");
        double afterConflictBefore = segments(applier, "after_conflict");
        List<ChangeRecord> stream = new ArrayList<>(Records.transaction(++txId, lsn += 100,
                List.of(new ChangeRecord.Truncate(false, false, List.of(1)))));
        for (int id = 0; id < 400; id++) {
            stream.addAll(Records.transaction(++txId, lsn += 100, List.of(insert(1, i4(id), i4(0)))));
        }
        for (int k = 1; k <= 300; k++) { // two hot rows: the segments in flight keep meeting
            stream.addAll(Records.transaction(++txId, lsn += 100, List.of(update(1, i4(k % 2), i4(k)))));
        }
        applier.feeder().send(stream);
        applier.awaitApplied(lsn);
        assertThat(Sql.rows(replica, "SELECT id, v FROM pa WHERE id < 3 ORDER BY id")).containsExactly(List.of("0", "300"),
                List.of("1", "299"), List.of("2", "0"));
        assertThat(Sql.rows(replica, "SELECT count(*) FROM pa")).containsExactly(List.of("400"));
        assertThat(segments(applier, "parallel") - parallelBefore).as("segments with nothing to wait for").isGreaterThan(10);
        assertThat(segments(applier, "after_conflict") - afterConflictBefore).as("segments that waited for one they meet")
                .isGreaterThan(10);
    }

    private static double segments(ApplierFixture applier, String path) {
        return applier.registry().get("rdmarepl.applier.segments").tag("path", path).counter().count();
    }
}
