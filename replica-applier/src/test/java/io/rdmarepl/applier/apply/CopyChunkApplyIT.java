package io.rdmarepl.applier.apply;

import static io.rdmarepl.applier.testing.Records.i4;
import static io.rdmarepl.applier.testing.Records.relation;
import static io.rdmarepl.applier.testing.Records.text;
import static io.rdmarepl.applier.testing.Records.update;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.applier.testing.ApplierFixture;
import io.rdmarepl.applier.testing.Sql;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * CopyChunk records ({@link CopyChunkApply}) on a real replica fed through a real shm ring: the COPY text goes in as
 * it is, a chunk that meets rows already there keeps upsert semantics through the temporary table, a table where a
 * trigger fires for the applier goes that way from the start, a refused value is named by its row, a missing column
 * pauses naming it, chunks of one table apply side by side ({@code apply.copy.workers}). One server for the class.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CopyChunkApplyIT extends ReplicaPerClass {
    private static final String WAITING = "SELECT pid FROM pg_locks WHERE relation = 'side_by_side'::regclass AND NOT granted";
    private static ChangeRecord.CopyChunk chunk(int relation, int columns, List<String> rows) {
        StringBuilder text = new StringBuilder();
        rows.forEach(r -> text.append(r).append('\n'));
        return new ChangeRecord.CopyChunk(relation, IntStream.range(0, columns).boxed().toList(), rows.size(),
                text.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> rows(int fromId, int toId, String value) {
        return IntStream.rangeClosed(fromId, toId).mapToObj(id -> id + "\t" + value).toList();
    }

    @Test
    void shouldCopyTheTextAsItIsAndUpsertTheRowsAChunkMeets() throws Exception {
        Sql.write(replica, "CREATE TABLE chunked (id int PRIMARY KEY, v text, b bytea, t timestamptz, n numeric);"
                + " INSERT INTO chunked VALUES (5, 'replica', NULL, NULL, 0), (105, 'replica', NULL, NULL, 0)");
        // COPY text: \t and \n escapes, an escaped backslash, \\N (a backslash and N, not NULL), UTF-8
        String nasty = "tab\\there\\nnewline back\\\\slash é \\\\N-not-null";
        try (ApplierFixture f = ApplierFixture.start(replica, "chunked")) {
            ChangeRecord.Relation rel = relation(1, "chunked", 'd', "id*", "v", "b", "t", "n");
            // rows 1..50 meet row 5: the COPY is rolled back to its savepoint and the bytes go through a temporary table
            List<String> first = IntStream.rangeClosed(1, 50).mapToObj(id -> id + "\t" + nasty + "\t\\\\x00ff\t"
                    + "2024-02-29 12:34:56.000001+00\t" + "3.14159265358979323846264338327950288").toList();
            f.feeder().send(rel).snapshotChunk(1, 0x10, chunk(1, 5, first));
            Await.until("the first chunk applied", DEADLINE, f::status, s -> s.transactionsApplied() >= 1);
            assertThat(f.registry().get("rdmarepl.applier.copy.fallbacks").counter().count())
                    .as("the first chunk met row 5").isEqualTo(1.0);
            // rows 51..100 meet nothing: one COPY straight into the table
            f.feeder().snapshotChunk(2, 0x10, chunk(1, 5, rows(51, 100, "copied\t\\N\t\\N\t-0")));
            Await.until("the second chunk applied", DEADLINE, f::status, s -> s.transactionsApplied() >= 2);
            assertThat(f.registry().get("rdmarepl.applier.copy.fallbacks").counter().count())
                    .as("the second chunk met no row").isEqualTo(1.0);
            // the first chunk again (a shipper restarted its copy), then the copy's last, unflagged transaction
            f.feeder().snapshotChunk(3, 0x10, chunk(1, 5, first));
            f.feeder().transaction(4, 0x10);
            f.awaitApplied(0x10);
            assertThat(f.registry().get("rdmarepl.applier.copy.fallbacks").counter().count())
                    .as("the chunk sent again met its own rows").isEqualTo(2.0);
            assertThat(f.registry().get("rdmarepl.applier.copied.rows").counter().count()).isEqualTo(150.0);
        }
        assertThat(Sql.rows(replica, "SELECT count(*), count(*) FILTER (WHERE v = 'copied'), min(id), max(id) FROM chunked"))
                .containsExactly(List.of("101", "50", "1", "105"));
        assertThat(Sql.rows(replica, "SELECT v, encode(b, 'hex'), t = '2024-02-29 12:34:56.000001+00', n::text"
                + " FROM chunked WHERE id = 5"))
                .as("row 5 overwritten by the chunk, every value exact")
                .containsExactly(List.of("tab\there\nnewline back\\slash é \\N-not-null", "00ff", "t",
                        "3.14159265358979323846264338327950288"));
    }

    @Test
    void shouldApplyTheChunksOfOneTableSideBySideAndTheStreamAfterThem() throws Exception {
        Sql.write(replica, "CREATE TABLE side_by_side (id int PRIMARY KEY, v text)");
        // apply.copy.workers: 2 by default; each chunk below fills a group, so no two share a segment (one worker)
        try (ApplierFixture f = ApplierFixture.start(replica, "side-by-side", "apply.group.max.bytes", "1024");
             Connection blocker = replica.connect("postgres")) {
            // the first chunk carries the Relation: it runs alone on the apply thread
            f.feeder().send(relation(1, "side_by_side", 'd', "id*", "v")).snapshotChunk(1, 0x10, chunk(1, 2, rows(1, 100, "a")));
            Await.until("the first chunk applied", DEADLINE, f::status, s -> s.transactionsApplied() >= 1);
            blocker.setAutoCommit(false);
            try (Statement lock = blocker.createStatement()) {
                lock.execute("LOCK TABLE side_by_side IN SHARE MODE"); // a COPY waits for it
            }
            f.feeder().snapshotChunk(2, 0x10, chunk(1, 2, rows(101, 200, "b".repeat(20))))
                    .snapshotChunk(3, 0x10, chunk(1, 2, rows(201, 300, "c".repeat(20))));
            Await.until("both chunks waiting for the table at once", DEADLINE, () -> Sql.rows(replica, WAITING).size(),
                    n -> n == 2);
            // the copy's closing transaction, then a streamed change of a row the last chunk wrote, read while the
            // chunks wait: an update sent before the chunk committed would find no row (and the value stay "c...")
            f.feeder().transaction(4, 0x10).transaction(5, 0x20, update(1, i4(300), text("streamed")));
            Await.until("the stream read behind the waiting chunks", DEADLINE, () -> {
                f.feeder().writer().feedback().refresh();
                return f.feeder().writer().feedback().consumerPosition();
            }, position -> position == f.feeder().writer().position());
            List<List<String>> workers = Sql.rows(replica, WAITING + " ORDER BY pid");
            String workerPids = workers.stream().map(r -> r.get(0)).collect(Collectors.joining(","));
            blocker.rollback();
            f.awaitApplied(0x20);
            Await.until("the copy's workers closed their connections", DEADLINE, () -> Sql.count(replica,
                    "SELECT count(*) FROM pg_stat_activity WHERE pid IN (" + workerPids + ")"), n -> n == 0);
        }
        assertThat(Sql.rows(replica, "SELECT count(*), count(DISTINCT v), max(id), (SELECT v FROM side_by_side WHERE id = 300)"
                + " FROM side_by_side")).containsExactly(List.of("300", "4", "300", "streamed"));
    }

    @Test
    void shouldKeepTheWorkersConnectionWhileTheCopyWaitsForItsNextChunk() throws Exception {
        Sql.write(replica, "CREATE TABLE between_chunks (id int PRIMARY KEY, v text)");
        String waiting = "SELECT pid FROM pg_locks WHERE relation = 'between_chunks'::regclass AND NOT granted";
        try (ApplierFixture f = ApplierFixture.start(replica, "between-chunks", "apply.group.max.bytes", "1024");
             Connection blocker = replica.connect("postgres")) {
            f.feeder().send(relation(1, "between_chunks", 'd', "id*", "v")).snapshotChunk(1, 0x10, chunk(1, 2, rows(1, 100, "a")));
            Await.until("the first chunk applied", DEADLINE, f::status, s -> s.transactionsApplied() >= 1);
            blocker.setAutoCommit(false);
            List<String> pids = new ArrayList<>();
            for (int tx = 2; tx <= 3; tx++) {
                try (Statement lock = blocker.createStatement()) {
                    lock.execute("LOCK TABLE between_chunks IN SHARE MODE");
                }
                f.feeder().snapshotChunk(tx, 0x10, chunk(1, 2, rows(tx * 100 + 1, tx * 100 + 100, "b".repeat(20))));
                pids.add(Await.until("chunk " + tx + " waiting on a worker", DEADLINE, () -> Sql.rows(replica, waiting),
                        r -> r.size() == 1).get(0).get(0));
                blocker.rollback();
                long applied = tx;
                Await.until("chunk " + tx + " applied, the log empty", DEADLINE, f::status, s -> s.transactionsApplied() >= applied);
            }
            assertThat(pids.get(1)).as("the same worker's backend: no stand-down while the copy goes on").isEqualTo(pids.get(0));
            f.feeder().transaction(4, 0x10);
            f.awaitApplied(0x10);
        }
    }

    @Test
    void shouldInsertThroughATemporaryTableWhereATriggerFiresForTheApplier() throws Exception {
        Sql.write(replica, "CREATE TABLE audited (id int PRIMARY KEY, v text); CREATE TABLE audit (id int);"
                + " CREATE FUNCTION audit_row() RETURNS trigger LANGUAGE plpgsql AS"
                + " $$BEGIN INSERT INTO audit VALUES (NEW.id); RETURN NEW; END$$;"
                + " CREATE TRIGGER audit_it AFTER INSERT ON audited FOR EACH ROW EXECUTE FUNCTION audit_row();"
                + " ALTER TABLE audited ENABLE ALWAYS TRIGGER audit_it");
        try (ApplierFixture f = ApplierFixture.start(replica, "audited")) {
            f.feeder().send(relation(1, "audited", 'd', "id*", "v")).snapshotChunk(1, 0x10, chunk(1, 2, rows(1, 40, "x")));
            f.feeder().transaction(2, 0x10);
            f.awaitApplied(0x10);
            assertThat(f.registry().get("rdmarepl.applier.copy.fallbacks").counter().count())
                    .as("not a fallback: the table never takes COPY").isEqualTo(0.0);
        }
        assertThat(Sql.rows(replica, "SELECT (SELECT count(*) FROM audited), (SELECT count(*) FROM audit)"))
                .as("the trigger fired for every row, as for the row path's INSERTs").containsExactly(List.of("40", "40"));
    }

    @Test
    void shouldNameTheRowAndColumnAChunkRefused() throws Exception {
        Sql.write(replica, "CREATE TABLE narrow_chunk (id int PRIMARY KEY, code char(3))");
        try (ApplierFixture f = ApplierFixture.start(replica, "narrow_chunk")) {
            List<String> rows = IntStream.rangeClosed(1, 2_000).mapToObj(id -> id + "\t" + (id == 1_234 ? "abcdef" : "abc"))
                    .toList();
            f.feeder().send(relation(1, "narrow_chunk", 'd', "id*", "code")).snapshotChunk(1, 0x10, chunk(1, 2, rows));
            f.feeder().transaction(2, 0x10);
            ApplierStatus paused = Await.until("apply paused on the value the COPY refused", DEADLINE, f::status,
                    s -> s.state() == ApplierState.PAUSED_SCHEMA);
            assertThat(paused.lastError()).contains("column \"code\" (character(3)) refused 'abcdef'",
                    "value too long for type character(3)", "row 1234 of 2000", "1234\tabcdef", "\"public\".\"narrow_chunk\"",
                    "apply paused at transaction 1");
        }
        assertThat(Sql.rows(replica, "SELECT count(*) FROM narrow_chunk")).containsExactly(List.of("0"));
    }

    @Test
    void shouldPauseNamingTheColumnTheReplicaLacks() throws Exception {
        Sql.write(replica, "CREATE TABLE drifted (id int PRIMARY KEY)");
        try (ApplierFixture f = ApplierFixture.start(replica, "drifted")) {
            f.feeder().send(relation(1, "drifted", 'd', "id*", "extra")).snapshotChunk(1, 0x10, chunk(1, 2, rows(1, 3, "x")));
            f.feeder().transaction(2, 0x10);
            ApplierStatus paused = Await.until("apply paused on the missing column", DEADLINE, f::status,
                    s -> s.state() == ApplierState.PAUSED_SCHEMA);
            assertThat(paused.lastError()).contains("replica table \"public\".\"drifted\" has no column \"extra\"");
            Sql.write(replica, "ALTER TABLE drifted ADD COLUMN extra text");
            f.awaitApplied(0x10);
        }
        assertThat(Sql.rows(replica, "SELECT count(*), min(extra) FROM drifted")).containsExactly(List.of("3", "x"));
    }
}
