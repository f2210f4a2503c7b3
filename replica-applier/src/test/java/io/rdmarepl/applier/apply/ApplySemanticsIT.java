package io.rdmarepl.applier.apply;

import static io.rdmarepl.applier.testing.Records.deleteFull;
import static io.rdmarepl.applier.testing.Records.deleteKey;
import static io.rdmarepl.applier.testing.Records.i4;
import static io.rdmarepl.applier.testing.Records.insert;
import static io.rdmarepl.applier.testing.Records.nul;
import static io.rdmarepl.applier.testing.Records.relation;
import static io.rdmarepl.applier.testing.Records.text;
import static io.rdmarepl.applier.testing.Records.toast;
import static io.rdmarepl.applier.testing.Records.update;
import static io.rdmarepl.applier.testing.Records.updateFull;
import static io.rdmarepl.applier.testing.Records.updateKey;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.applier.testing.ApplierFixture;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.applier.testing.Records;
import io.rdmarepl.applier.testing.Sql;
import io.rdmarepl.format.ChangeStream;
import io.rdmarepl.format.codec.RecordEncoder;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.Tuple;
import io.rdmarepl.format.record.Value;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What the applier does to rows, on a real replica fed through a real shm ring. One server for the class. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ApplySemanticsIT extends ReplicaPerClass {
    @Test
    void shouldBindColumnsByNameWhateverTheReplicaColumnOrder() throws Exception {
        Sql.write(replica, "CREATE TABLE by_name (note text, \"Qty\" int, id int PRIMARY KEY)");
        try (ApplierFixture f = ApplierFixture.start(replica, "by-name")) {
            f.feeder().send(relation(1, "by_name", 'd', "id*", "Qty", "note"))
                    .transaction(1, 10, insert(1, i4(1), i4(5), text("a")), insert(1, i4(2), i4(6), text("b")))
                    .transaction(2, 20, update(1, i4(1), i4(7), text("a2")), deleteKey(1, i4(2), nul(), nul()));
            f.awaitApplied(20);
        }
        assertThat(Sql.rows(replica, "SELECT id, \"Qty\", note FROM by_name ORDER BY id"))
                .containsExactly(List.of("1", "7", "a2"));
    }

    @Test
    void shouldFindUpdateAndDeleteRowsByCharAndBitKeysWithoutCuttingThem() throws Exception {
        Sql.write(replica, "CREATE TABLE padded (code char(4) PRIMARY KEY, flags bit(8), note char(10));"
                + " CREATE TABLE bitkeyed (k bit(8) PRIMARY KEY, v int)");
        Value ab = text("ab  ");
        Value ac = text("ac  ");
        Value a = text("a   ");
        Value bits = new Value.TextFallback(1560, "10100001");
        try (ApplierFixture f = ApplierFixture.start(replica, "padded")) {
            f.feeder().send(relation(1, "padded", 'd', "code*", "flags", "note"))
                    .send(relation(2, "bitkeyed", 'd', "k*", "v"))
                    .transaction(1, 10, insert(1, a, bits, text("first")), insert(1, ab, bits, text("second")),
                            insert(1, ac, bits, text("third")), insert(2, bits, i4(1)),
                            insert(2, new Value.TextFallback(1560, "10100000"), i4(2)))
                    .transaction(2, 20, update(1, ab, bits, text("second v2")))
                    .transaction(3, 30, deleteKey(1, ac, nul(), nul()), deleteKey(2, bits, nul()));
            f.awaitApplied(30);
        }
        assertThat(Sql.rows(replica, "SELECT code || '|', flags, note || '|' FROM padded ORDER BY code"))
                .containsExactly(List.of("a|", "10100001", "first|"), List.of("ab|", "10100001", "second v2|"));
        assertThat(Sql.rows(replica, "SELECT k, v FROM bitkeyed")).containsExactly(List.of("10100000", "2"));
    }

    @Test
    void shouldPauseNamingTableAndKeyWhenAnUpdateOrDeleteFindsNoRowThenResumeOnceRepaired() throws Exception {
        Sql.write(replica, "CREATE TABLE diverged (id int, code char(3), v text, PRIMARY KEY (id, code))");
        try (ApplierFixture f = ApplierFixture.start(replica, "diverged")) {
            f.feeder().send(relation(1, "diverged", 'd', "id*", "code*", "v"))
                    .transaction(1, 0x10, insert(1, i4(1), text("ab "), text("a")), insert(1, i4(2), text("x  "), text("b")))
                    .transaction(2, 0x20, update(1, i4(1), text("ab "), text("a2")), update(1, i4(7), text("zz "), text("lost")))
                    .transaction(3, 0x30, insert(1, i4(3), text("c  "), text("c")));
            ApplierStatus paused = Await.until("apply paused on the update that found no row", DEADLINE, f::status,
                    s -> s.state() == ApplierState.PAUSED_ERROR);
            assertThat(paused.lastError()).contains("UPDATE of \"public\".\"diverged\" found no row with key"
                    + " (\"id\", \"code\")=(7, zz )", "0/20", "apply.on.divergence");
            assertThat(paused.appliedLsn()).as("the transaction before it is applied, nothing of it").isEqualTo(0x10);
            assertThat(Sql.rows(replica, "SELECT v FROM diverged WHERE id = 1")).containsExactly(List.of("a"));
            Sql.write(replica, "INSERT INTO diverged VALUES (7, 'zz', 'repaired')");
            f.awaitApplied(0x30);
            f.feeder().transaction(4, 0x40, deleteKey(1, i4(9), text("no "), nul()));
            ApplierStatus deleted = Await.until("apply paused on the delete that found no row", DEADLINE, f::status,
                    s -> s.state() == ApplierState.PAUSED_ERROR);
            assertThat(deleted.lastError()).contains("DELETE of \"public\".\"diverged\" found no row with key"
                    + " (\"id\", \"code\")=(9, no )", "0/40");
            assertThat(deleted.appliedLsn()).as("a lone row that is not found writes no position").isEqualTo(0x30);
        }
        assertThat(Sql.rows(replica, "SELECT id, v FROM diverged ORDER BY id"))
                .containsExactly(List.of("1", "a2"), List.of("2", "b"), List.of("3", "c"), List.of("7", "lost"));
    }

    @Test
    void shouldPauseWhenAStreamedInsertMeetsAnExistingKeyButLetAnInitialCopyOverwrite() throws Exception {
        Sql.write(replica, "CREATE TABLE met (id int PRIMARY KEY, v text); INSERT INTO met VALUES (1, 'replica'), (2, 'replica')");
        try (ApplierFixture f = ApplierFixture.start(replica, "met")) {
            f.feeder().send(relation(1, "met", 'd', "id*", "v"))
                    .snapshotChunk(1, 0x10, insert(1, i4(1), text("copied")))
                    .transaction(2, 0x20, insert(1, i4(2), text("streamed")));
            ApplierStatus paused = Await.until("apply paused on the insert that met a row", DEADLINE, f::status,
                    s -> s.state() == ApplierState.PAUSED_ERROR);
            assertThat(paused.lastError()).contains("INSERT into \"public\".\"met\" met a row that is already on the"
                    + " replica (Key (id)=(2) already exists.)", "0/20");
            assertThat(Sql.rows(replica, "SELECT id, v FROM met ORDER BY id"))
                    .containsExactly(List.of("1", "copied"), List.of("2", "replica"));
        }
    }

    @Test
    void shouldCountAndLogDivergenceInsteadOfPausingWhenConfiguredTo() throws Exception {
        Sql.write(replica, "CREATE TABLE tolerated (id int PRIMARY KEY, v text); INSERT INTO tolerated VALUES (2, 'replica')");
        try (ApplierFixture f = ApplierFixture.start(replica, "tolerated", "apply.on.divergence", "log")) {
            f.feeder().send(relation(1, "tolerated", 'd', "id*", "v"))
                    .transaction(1, 0x10, update(1, i4(1), text("nowhere")), insert(1, i4(2), text("streamed")));
            f.awaitApplied(0x10);
            assertThat(f.registry().get("rdmarepl.applier.rows.missing").counter().count()).isEqualTo(1.0);
        }
        assertThat(Sql.rows(replica, "SELECT id, v FROM tolerated")).containsExactly(List.of("2", "streamed"));
    }

    @Test
    void shouldNeverWriteGeneratedColumnsAndOverrideIdentityAlways() throws Exception {
        Sql.write(replica, "CREATE TABLE gen (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, price numeric, qty int,"
                + " total numeric GENERATED ALWAYS AS (price * qty) STORED)");
        Value price = new Value.Numeric(new BigDecimal("2.50"));
        try (ApplierFixture f = ApplierFixture.start(replica, "gen")) {
            f.feeder().send(relation(1, "gen", 'd', "id*", "price", "qty", "total"))
                    .transaction(1, 10, insert(1, i4(100), price, i4(4), new Value.Numeric(new BigDecimal("10.00"))))
                    .transaction(2, 20, update(1, i4(100), price, i4(6), new Value.Numeric(new BigDecimal("15.00"))));
            f.awaitApplied(20);
        }
        assertThat(Sql.rows(replica, "SELECT id, price, qty, total FROM gen")).containsExactly(List.of("100", "2.50", "6", "15.00"));
    }

    @Test
    void shouldReplicatePartitionedTablesIncludingRowsThatMovePartition() throws Exception {
        Sql.write(replica, "CREATE TABLE events (id int, region text, v text, PRIMARY KEY (id, region)) PARTITION BY LIST (region);"
                + " CREATE TABLE events_eu PARTITION OF events FOR VALUES IN ('eu');"
                + " CREATE TABLE events_us PARTITION OF events FOR VALUES IN ('us')");
        try (ApplierFixture f = ApplierFixture.start(replica, "partitioned")) {
            f.feeder().send(relation(1, "events", 'd', "id*", "region*", "v"))
                    .transaction(1, 10, insert(1, i4(1), text("eu"), text("a")), insert(1, i4(2), text("us"), text("b")),
                            insert(1, i4(3), text("us"), text("c")))
                    .transaction(2, 20, updateKey(1, Tuple.of(i4(1), text("eu"), nul()), i4(1), text("us"), text("a2")),
                            deleteKey(1, i4(3), text("us"), nul()));
            f.awaitApplied(20);
        }
        assertThat(Sql.rows(replica, "SELECT tableoid::regclass::text, id, region, v FROM events ORDER BY id"))
                .containsExactly(List.of("events_us", "1", "us", "a2"), List.of("events_us", "2", "us", "b"));
    }

    @Test
    void shouldUpdateAndDeleteExactlyOneOfDuplicateRowsOfAKeylessTable() throws Exception {
        Sql.write(replica, "CREATE TABLE keyless (msg text, n int); ALTER TABLE keyless REPLICA IDENTITY FULL");
        try (ApplierFixture f = ApplierFixture.start(replica, "keyless")) {
            f.feeder().send(relation(1, "keyless", 'f', "msg*", "n*"))
                    .transaction(1, 10, insert(1, text("a"), i4(1)), insert(1, text("a"), i4(1)), insert(1, text("a"), i4(1)),
                            insert(1, nul(), i4(2)), insert(1, nul(), i4(2)))
                    .transaction(2, 20, updateFull(1, Tuple.of(text("a"), i4(1)), text("a"), i4(10)))
                    .transaction(3, 30, deleteFull(1, text("a"), i4(1)), deleteFull(1, nul(), i4(2)));
            f.awaitApplied(30);
        }
        assertThat(Sql.rows(replica, "SELECT msg, n FROM keyless ORDER BY n, msg"))
                .containsExactly(List.of("a", "1"), java.util.Arrays.asList(null, "2"), List.of("a", "10"));
    }

    @Test
    void shouldKeepUnchangedToastColumnsAndFollowPrimaryKeyChanges() throws Exception {
        Sql.write(replica, "CREATE TABLE docs (id int PRIMARY KEY, body text, title text)");
        String body = "x".repeat(100_000);
        try (ApplierFixture f = ApplierFixture.start(replica, "toast")) {
            f.feeder().send(relation(1, "docs", 'd', "id*", "body", "title"))
                    .transaction(1, 10, insert(1, i4(1), text(body), text("t1")))
                    .transaction(2, 20, update(1, i4(1), toast(), text("t2")))
                    .transaction(3, 30, updateKey(1, Tuple.of(i4(1), nul(), nul()), i4(5), toast(), text("t3")));
            f.awaitApplied(30);
        }
        assertThat(Sql.rows(replica, "SELECT id, length(body), title FROM docs"))
                .containsExactly(List.of("5", "100000", "t3"));
    }

    @Test
    void shouldApplyTruncate() throws Exception {
        Sql.write(replica, "CREATE TABLE trunc_a (id int PRIMARY KEY); CREATE TABLE trunc_b (id int PRIMARY KEY)");
        try (ApplierFixture f = ApplierFixture.start(replica, "truncate")) {
            f.feeder().send(relation(1, "trunc_a", 'd', "id*"), relation(2, "trunc_b", 'd', "id*"))
                    .transaction(1, 10, insert(1, i4(1)), insert(1, i4(2)), insert(2, i4(3)))
                    .transaction(2, 20, new ChangeRecord.Truncate(false, false, List.of(1, 2)), insert(1, i4(9)));
            f.awaitApplied(20);
        }
        assertThat(Sql.rows(replica, "SELECT id FROM trunc_a UNION ALL SELECT -id FROM trunc_b")).containsExactly(List.of("9"));
    }

    @Test
    void shouldNameTheTruncateNotTheLastBatchWhenATruncateIsRefused() throws Exception {
        Sql.write(replica, "CREATE TABLE t_parent (id int PRIMARY KEY); CREATE TABLE t_other (id int PRIMARY KEY);"
                + " CREATE TABLE t_child (id int PRIMARY KEY, parent int REFERENCES t_parent)");
        try (ApplierFixture f = ApplierFixture.start(replica, "truncate-refused")) {
            f.feeder().send(relation(1, "t_parent", 'd', "id*"), relation(2, "t_other", 'd', "id*"))
                    .transaction(1, 0x10, insert(2, i4(1)), new ChangeRecord.Truncate(false, false, List.of(1)));
            ApplierStatus paused = Await.until("apply paused on the refused truncate", DEADLINE, f::status,
                    s -> s.state().paused());
            assertThat(paused.lastError()).contains("applying Truncate to \"public\".\"t_parent\"", "0A000")
                    .doesNotContain("t_other");
        }
    }

    @Test
    void shouldGroupTransactionsButNeverMakeHalfOfOneVisible() throws Exception {
        Sql.write(replica, "CREATE TABLE grouped (tx int, n int, PRIMARY KEY (tx, n))");
        int transactions = 150;
        int rowsPerTx = 20;
        AtomicReference<String> partial = new AtomicReference<>();
        try (ApplierFixture f = ApplierFixture.start(replica, "grouped", "apply.batch.max.rows", "7");
             Connection client = replica.connect("postgres")) {
            f.feeder().send(relation(1, "grouped", 'd', "tx*", "n*"));
            Thread checker = new Thread(() -> {
                try (Statement s = client.createStatement()) {
                    while (!Thread.currentThread().isInterrupted() && partial.get() == null) {
                        try (var r = s.executeQuery("SELECT tx, count(*) FROM grouped GROUP BY tx HAVING count(*) <> "
                                + rowsPerTx + " LIMIT 1")) {
                            if (r.next()) {
                                partial.set("transaction " + r.getInt(1) + " visible with " + r.getLong(2) + " rows");
                            }
                        }
                    }
                } catch (SQLException e) {
                    if (!Thread.currentThread().isInterrupted()) {
                        partial.compareAndSet(null, "checker failed: " + e.getMessage());
                    }
                }
            });
            checker.start();
            for (int tx = 1; tx <= transactions; tx++) {
                List<ChangeRecord> rows = new ArrayList<>();
                for (int n = 0; n < rowsPerTx; n++) {
                    rows.add(insert(1, i4(tx), i4(n)));
                }
                f.feeder().send(Records.transaction(tx, tx * 100L, rows));
            }
            f.awaitApplied(transactions * 100L);
            checker.interrupt();
            checker.join(5_000);
            assertThat(partial.get()).as("a partially visible transaction").isNull();
            assertThat(f.registry().get("rdmarepl.applier.group.transactions").summary().max())
                    .as("most source transactions in one replica transaction").isGreaterThan(1);
        }
        assertThat(Sql.count(replica, "SELECT count(*) FROM grouped")).isEqualTo((long) transactions * rowsPerTx);
    }

    @Test
    void shouldApplyAnEmptyTransactionMovingAppliedAndDurableToItsCommitLsn() throws Exception {
        // the coordinator's switchover marker (pg_logical_emit_message) reaches the ring as Begin + Commit alone
        Sql.write(replica, "CREATE TABLE before_marker (id int PRIMARY KEY)");
        try (ApplierFixture f = ApplierFixture.start(replica, "empty-tx")) {
            f.feeder().send(relation(1, "before_marker", 'd', "id*")).transaction(1, 0x100, insert(1, i4(1)));
            f.awaitApplied(0x100);
            f.feeder().send(Records.transaction(2, 0x200, List.of()));

            ApplierStatus marker = f.awaitApplied(0x200);
            assertThat(marker.appliedTxId()).isEqualTo(2);
            Await.equalTo("durable LSN", DEADLINE, () -> f.status().durableLsn(), 0x200L);
            Await.equalTo("durable LSN reported to the shipper", DEADLINE, () -> {
                f.feeder().writer().feedback().refresh();
                return f.feeder().writer().feedback().durableLsn();
            }, 0x200L);
            assertThat(f.feeder().writer().feedback().appliedLsn()).isEqualTo(0x200);
            assertThat(Sql.rows(replica, "SELECT commit_lsn::text, tx_id::text FROM rdmarepl.applied_position"
                    + " WHERE source = 'empty-tx'")).containsExactly(List.of("0/200", "2"));

            // alone in a group of several, and between two others
            f.feeder().transaction(3, 0x300, insert(1, i4(3))).send(Records.transaction(4, 0x400, List.of()))
                    .transaction(5, 0x500, insert(1, i4(5))).send(Records.transaction(6, 0x600, List.of()));
            f.awaitApplied(0x600);
            Await.equalTo("durable LSN", DEADLINE, () -> f.status().durableLsn(), 0x600L);
        }
        assertThat(Sql.rows(replica, "SELECT id FROM before_marker ORDER BY id"))
                .containsExactly(List.of("1"), List.of("3"), List.of("5"));
    }

    @Test
    void shouldSkipTransactionsAlreadyAppliedWhenTheyAreSentAgainAfterARestart() throws Exception {
        Sql.write(replica, "CREATE TABLE resent (n int); ALTER TABLE resent REPLICA IDENTITY FULL");
        try (ApplierFixture f = ApplierFixture.start(replica, "resent")) {
            f.feeder().send(relation(1, "resent", 'f', "n*"));
            for (int tx = 1; tx <= 10; tx++) {
                f.feeder().transaction(tx, tx * 10L, insert(1, i4(tx)));
            }
            f.awaitApplied(100);
        }
        try (ApplierFixture f = ApplierFixture.start(replica, "resent")) {
            f.feeder().send(relation(1, "resent", 'f', "n*"));
            for (int tx = 1; tx <= 15; tx++) {
                f.feeder().transaction(tx, tx * 10L, insert(1, i4(tx)));
            }
            assertThat(f.awaitApplied(150).skippedTransactions()).isEqualTo(10);
        }
        assertThat(Sql.count(replica, "SELECT count(*) FROM resent")).isEqualTo(15);
        assertThat(Sql.count(replica, "SELECT count(DISTINCT n) FROM resent")).isEqualTo(15);
    }

    @Test
    void shouldPauseOnSchemaDriftNamingTableColumnAndLsnThenResumeOnceFixed() throws Exception {
        Sql.write(replica, "CREATE TABLE drift (id int PRIMARY KEY)");
        try (ApplierFixture f = ApplierFixture.start(replica, "drift")) {
            f.feeder().send(relation(1, "drift", 'd', "id*"))
                    .transaction(1, 0x50, insert(1, i4(1)))
                    .send(relation(1, "drift", 'd', "id*", "extra"))
                    .transaction(2, 0x100, insert(1, i4(2), text("x")))
                    .transaction(3, 0x200, insert(1, i4(3), text("y")));
            ApplierStatus paused = Await.until("apply paused on the missing column", DEADLINE, f::status,
                    s -> s.state() == ApplierState.PAUSED_SCHEMA);
            assertThat(paused.lastError()).contains("\"public\".\"drift\"", "\"extra\"", "0/100");
            assertThat(paused.appliedLsn()).as("the transaction before the drift is applied").isEqualTo(0x50);
            assertThat(f.applier().healthy()).isFalse();
            Sql.write(replica, "ALTER TABLE drift ADD COLUMN extra text");
            f.awaitApplied(0x200);
            assertThat(f.status().state()).isEqualTo(ApplierState.STREAMING);
        }
        assertThat(Sql.rows(replica, "SELECT id, extra FROM drift ORDER BY id"))
                .containsExactly(java.util.Arrays.asList("1", null), List.of("2", "x"), List.of("3", "y"));
    }

    @Test
    void shouldPauseOnAValueTheReplicaTypeRejectsAndResumeWhenTheTypeAcceptsIt() throws Exception {
        Sql.write(replica, "CREATE TYPE mood AS ENUM ('sad'); CREATE TABLE moods (id int PRIMARY KEY, m mood)");
        try (ApplierFixture f = ApplierFixture.start(replica, "enum-drift")) {
            f.feeder().send(relation(1, "moods", 'd', "id*", "m"))
                    .transaction(1, 0x10, insert(1, i4(1), new Value.EnumLabel("happy")));
            ApplierStatus paused = Await.until("apply paused on the unknown enum label", DEADLINE, f::status,
                    s -> s.state() == ApplierState.PAUSED_SCHEMA);
            assertThat(paused.lastError()).contains("\"public\".\"moods\"", "happy", "0/10", "22P02");
            Sql.write(replica, "ALTER TYPE mood ADD VALUE 'happy'");
            f.awaitApplied(0x10);
        }
        assertThat(Sql.rows(replica, "SELECT m FROM moods")).containsExactly(List.of("happy"));
    }

    @Test
    void shouldPauseNamingTheColumnTypeAndValueANarrowerReplicaColumnRefuses() throws Exception {
        Sql.write(replica, "CREATE TABLE narrow (id int PRIMARY KEY, note text, code char(3))");
        try (ApplierFixture f = ApplierFixture.start(replica, "narrow")) {
            f.feeder().send(relation(1, "narrow", 'd', "id*", "note", "code"))
                    .transaction(1, 0x10, insert(1, i4(1), text("fits"), text("abc")))
                    .transaction(2, 0x20, insert(1, i4(2), text("fine"), text("abc")), insert(1, i4(3), text("too wide"),
                            text("abcdef")));
            ApplierStatus paused = Await.until("apply paused on the value the column refuses", DEADLINE, f::status,
                    s -> s.state() == ApplierState.PAUSED_SCHEMA);
            assertThat(paused.lastError()).contains("0/20", "column \"code\" (character(3)) refused 'abcdef': ",
                    "value too long for type character(3)", "\"public\".\"narrow\"");
            assertThat(paused.appliedLsn()).isEqualTo(0x10);
            Sql.write(replica, "ALTER TABLE narrow ALTER COLUMN code TYPE char(6)");
            f.awaitApplied(0x20);
        }
        assertThat(Sql.rows(replica, "SELECT id, code FROM narrow ORDER BY id"))
                .containsExactly(List.of("1", "abc   "), List.of("2", "abc   "), List.of("3", "abcdef"));
    }

    @Test
    void shouldNameTheTableAndValueRefusedInTheSecondBatchOfAGroupSentInOneRoundTrip() throws Exception {
        Sql.write(replica, "CREATE TABLE ledger (id int PRIMARY KEY, v int); CREATE TABLE narrow_too (id int PRIMARY KEY, code char(3))");
        try (ApplierFixture f = ApplierFixture.start(replica, "pipelined")) {
            f.feeder().send(relation(1, "ledger", 'd', "id*", "v"))
                    .send(relation(2, "narrow_too", 'd', "id*", "code"))
                    .transaction(1, 0x10, insert(1, i4(1), i4(1)))
                    .transaction(2, 0x20, update(1, i4(1), i4(2)), insert(2, i4(1), text("abcdef")));
            ApplierStatus paused = Await.until("apply paused on the value the column refuses", DEADLINE, f::status,
                    s -> s.state() == ApplierState.PAUSED_SCHEMA);
            assertThat(paused.lastError()).contains("0/20", "column \"code\" (character(3)) refused 'abcdef': ",
                    "\"public\".\"narrow_too\"");
            assertThat(paused.appliedLsn()).isEqualTo(0x10);
            assertThat(Sql.rows(replica, "SELECT v FROM ledger")).as("nothing of the refused transaction")
                    .containsExactly(List.of("1"));
            Sql.write(replica, "ALTER TABLE narrow_too ALTER COLUMN code TYPE char(6)");
            f.awaitApplied(0x20);
        }
        assertThat(Sql.rows(replica, "SELECT v FROM ledger")).containsExactly(List.of("2"));
        assertThat(Sql.rows(replica, "SELECT code FROM narrow_too")).containsExactly(List.of("abcdef"));
    }

    @Test
    void shouldRefuseAndCountAFrameOfAStaleEpoch() throws Exception {
        Sql.write(replica, "CREATE TABLE fenced (id int PRIMARY KEY)");
        try (ApplierFixture f = ApplierFixture.start(replica, "epoch")) {
            f.feeder().send(relation(1, "fenced", 'd', "id*")).transaction(1, 10, insert(1, i4(1)));
            f.awaitApplied(10);
            // a frame the old shipper had claimed before the coordinator moved the ring to epoch 2
            ByteBuffer scratch = ByteBuffer.allocate(256);
            int length = new RecordEncoder().encodeBegin(scratch, 0, 256, 2, 20, 0);
            int at = f.feeder().writer().tryClaim(ChangeStream.RECORD_FRAME_TYPE, length);
            assertThat(at).isNotNegative();
            f.applier().epoch(2);
            Await.equalTo("ring epoch", DEADLINE, () -> f.status().ringEpoch(), 2);
            f.feeder().writer().buffer().put(at, scratch, 0, length);
            f.feeder().writer().commit(io.rdmarepl.channel.fragment.MessageFlags.UNFRAGMENTED);
            f.feeder().writer().publish();
            Await.equalTo("refused stale-epoch frames", DEADLINE, () -> f.status().refusedEpochFrames(), 1L);
            assertThat(f.registry().get("rdmarepl.applier.ring.refused.epoch.frames").functionCounter().count()).isEqualTo(1.0);
            assertThat(f.status().toMap().get("ring").toString()).contains("refused_epoch_frames=1");
            assertThat(f.status().appliedLsn()).isEqualTo(10);
        }
    }

    @Test
    void shouldReportDurableOnlyWhatTheReplicaFlushed() throws Exception {
        Sql.write(replica, "CREATE TABLE durable (id int PRIMARY KEY)");
        try (ApplierFixture f = ApplierFixture.start(replica, "durable", "apply.synchronous.commit", "off")) {
            f.feeder().send(relation(1, "durable", 'd', "id*"));
            for (int tx = 1; tx <= 20; tx++) {
                f.feeder().transaction(tx, tx * 10L, insert(1, i4(tx)));
                ApplierStatus s = f.status();
                assertThat(Long.compareUnsigned(s.durableLsn(), s.appliedLsn())).as("durable never ahead of applied").isLessThanOrEqualTo(0);
            }
            f.awaitApplied(200);
            Await.equalTo("durable LSN reported to the shipper", DEADLINE, () -> {
                f.feeder().writer().feedback().refresh();
                return f.feeder().writer().feedback().durableLsn();
            }, 200L);
            assertThat(f.feeder().writer().feedback().appliedLsn()).isEqualTo(200);
        }
    }
}
