package io.rdmarepl.applier.apply;

import static io.rdmarepl.applier.testing.Records.i4;
import static io.rdmarepl.applier.testing.Records.insert;
import static io.rdmarepl.applier.testing.Records.relation;
import static io.rdmarepl.applier.testing.Records.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.applier.testing.ApplierFixture;
import io.rdmarepl.applier.testing.Sql;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.testsupport.Await;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A bulk of inserts sent as COPY ({@link CopyRows}), on a real replica fed through a real shm ring: an initial copy's
 * chunk that meets a row goes as statements, a streamed one pauses, a refused value is named by its row. Every type
 * through COPY: {@link ApplyTypesIT}. One server for the class.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CopyApplyIT extends ReplicaPerClass {
    @Test
    void shouldCopyABulkOfInsertsAndSendAnInitialCopysChunkThatMeetsARowAsUpserts() throws Exception {
        Sql.write(replica, "CREATE TABLE bulk (id int PRIMARY KEY, v text); INSERT INTO bulk VALUES (50, 'replica')");
        // a copy meeting a row goes as statements, 32 a JDBC batch
        try (ApplierFixture f = ApplierFixture.start(replica, "bulk", "apply.batch.max.rows", "32")) {
            f.feeder().send(relation(1, "bulk", 'd', "id*", "v")).snapshotChunk(1, 0x10, inserts(1, 40, "copied"));
            awaitTransactions(f, 1); // a chunk of an initial copy has no position of its own
            f.feeder().snapshotChunk(2, 0x20, inserts(41, 80, "copied"));
            awaitTransactions(f, 2);
            f.feeder().transaction(3, 0x30, inserts(81, 120, "streamed"));
            f.awaitApplied(0x30);
            assertThat(f.registry().get("rdmarepl.applier.copied.rows").counter().count())
                    .as("rows of the first chunk and the streamed transaction, copied").isEqualTo(80.0);
            assertThat(f.registry().get("rdmarepl.applier.copy.fallbacks").counter().count())
                    .as("the second chunk met row 50").isEqualTo(1.0);

            ChangeRecord[] meeting = inserts(121, 160, "streamed");
            meeting[20] = insert(1, i4(7), text("streamed"));
            f.feeder().transaction(4, 0x40, meeting);
            ApplierStatus paused = Await.until("apply paused on the copied insert that met a row", DEADLINE, f::status,
                    s -> s.state() == ApplierState.PAUSED_ERROR);
            assertThat(paused.lastError()).contains("INSERT into \"public\".\"bulk\" met a row that is already on the"
                    + " replica (Key (id)=(7) already exists.)", "0/40");
        }
        assertThat(Sql.rows(replica, "SELECT count(*), count(*) FILTER (WHERE v = 'copied'), min(id), max(id) FROM bulk"))
                .containsExactly(List.of("120", "80", "1", "120"));
    }

    @Test
    void shouldNameTheRowAndColumnACopyRefused() throws Exception {
        Sql.write(replica, "CREATE TABLE narrow_bulk (id int PRIMARY KEY, code char(3))");
        try (ApplierFixture f = ApplierFixture.start(replica, "narrow_bulk")) {
            ChangeRecord[] rows = new ChangeRecord[2_000];
            for (int id = 1; id <= rows.length; id++) {
                rows[id - 1] = insert(1, i4(id), text(id == 1_234 ? "abcdef" : "abc"));
            }
            f.feeder().send(relation(1, "narrow_bulk", 'd', "id*", "code")).transaction(1, 0x10, rows);
            ApplierStatus paused = Await.until("apply paused on the value the COPY refused", DEADLINE, f::status,
                    s -> s.state() == ApplierState.PAUSED_SCHEMA);
            assertThat(paused.lastError()).contains("column \"code\" (character(3)) refused 'abcdef'",
                    "value too long for type character(3)", "\"public\".\"narrow_bulk\"", "0/10");
        }
        assertThat(Sql.rows(replica, "SELECT count(*) FROM narrow_bulk")).containsExactly(List.of("0"));
    }

    private static void awaitTransactions(ApplierFixture f, long applied) {
        Await.until("transactions applied: " + applied, DEADLINE, f::status, s -> s.transactionsApplied() >= applied);
    }

    private static ChangeRecord[] inserts(int fromId, int toId, String value) {
        ChangeRecord[] rows = new ChangeRecord[toId - fromId + 1];
        for (int id = fromId; id <= toId; id++) {
            rows[id - fromId] = insert(1, i4(id), text(value));
        }
        return rows;
    }
}
