package io.rdmarepl.applier.apply;

import static io.rdmarepl.applier.testing.Records.i4;
import static io.rdmarepl.applier.testing.Records.i8;
import static io.rdmarepl.applier.testing.Records.insert;
import static io.rdmarepl.applier.testing.Records.relation;
import static io.rdmarepl.applier.testing.Records.sequence;
import static io.rdmarepl.applier.testing.Records.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.applier.testing.ApplierFixture;
import io.rdmarepl.applier.testing.Sql;
import io.rdmarepl.testsupport.Await;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The replica is read-only for clients until promotion, which also moves every sequence past the primary's: owned
 * ones past the rows, shipped ones past their last reading by the headroom and their rate.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PromotionIT extends ReplicaPerClass {
    @Test
    void shouldStayReadOnlyForClientsUntilPromotedThenSetSequencesPastTheHighestValue() throws Exception {
        Sql.write(replica, "CREATE TABLE serials (id serial PRIMARY KEY, v text);"
                + " CREATE TABLE idents (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v text)");
        try (ApplierFixture f = ApplierFixture.start(replica, "promotion", "promote.sequence.headroom", "10")) {
            f.feeder().send(relation(1, "serials", 'd', "id*", "v"), relation(2, "idents", 'd', "id*", "v"))
                    .transaction(1, 10, insert(1, i4(1000), text("a")), insert(1, i4(7), text("b")),
                            insert(2, i8(5000), text("c")));
            f.awaitApplied(10);

            assertThatThrownBy(() -> clientInsert("INSERT INTO serials (v) VALUES ('client')"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("25006"));
            assertThat(f.applier().sequencesSeen()).containsEntry("public.serials_id_seq", 1000L)
                    .containsEntry("public.idents_id_seq", 5000L);

            Map<String, Long> set = f.applier().promote(Duration.ofSeconds(10));
            assertThat(set).containsEntry("public.serials_id_seq", 1010L).containsEntry("public.idents_id_seq", 5010L);
            assertThat(f.status().state()).isEqualTo(ApplierState.PROMOTED);
        }
        clientInsert("INSERT INTO serials (v) VALUES ('after')");
        clientInsert("INSERT INTO idents (v) VALUES ('after')");
        assertThat(Sql.rows(replica, "SELECT (SELECT id FROM serials WHERE v = 'after'), (SELECT id FROM idents WHERE v = 'after')"))
                .containsExactly(java.util.List.of("1011", "5011"));
    }

    @Test
    void shouldLeaveTheReplicaReadOnlyAfterRehearsingThePromotionsStatement() throws Exception {
        Sql.write(replica, "CREATE TABLE rehearsed (id bigint PRIMARY KEY)");
        try (Connection applierSession = replica.connect("postgres"); Statement s = applierSession.createStatement()) {
            ReadOnlyGuard.readOnlyForClients(applierSession);
            applierSession.setAutoCommit(false);

            ReadOnlyGuard.rehearseWritable(applierSession);

            assertThatThrownBy(() -> clientInsert("INSERT INTO rehearsed VALUES (1)"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("25006"));
            applierSession.setAutoCommit(true);
            assertThatThrownBy(() -> ReadOnlyGuard.rehearseWritable(applierSession))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("autocommit");
            assertThatThrownBy(() -> clientInsert("INSERT INTO rehearsed VALUES (2)"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("25006"));
            ReadOnlyGuard.writableForClients(applierSession);
        }
        clientInsert("INSERT INTO rehearsed VALUES (3)");
    }

    @Test
    void shouldStopRenewingThePrimarysLeaseFromTheDrainUntilToldToFollow() throws Exception {
        try (ApplierFixture f = oneRowApplied("renewals", "lease-renewal")) {
            assertThat(f.applier().drain().get(10, TimeUnit.SECONDS)).isEqualTo(10);
            assertThat(f.status().state()).isEqualTo(ApplierState.DRAINING);
            var feedback = f.feeder().writer().feedback();
            awaitFeedback(feedback, () -> feedback.appliedLsn() == 10);
            long held = feedback.heartbeatTimeUs();

            // still applying while draining, and reporting it, but no longer vouching for the primary
            f.feeder().transaction(2, 20, insert(1, i8(2)));
            awaitFeedback(feedback, () -> feedback.appliedLsn() == 20);
            assertThat(feedback.heartbeatTimeUs()).as("the heartbeat stays where the drain found it").isEqualTo(held);

            f.applier().follow();
            awaitFeedback(feedback, () -> feedback.heartbeatTimeUs() > held);
            Await.equalTo("the applier's state", Duration.ofSeconds(10), () -> f.status().state(), ApplierState.STREAMING);
        }
    }

    /**
     * A drain (as any command) wakes the idle apply thread, which otherwise finishes its sleep first: here a sleep of
     * a second ({@code apply.idle.max.park.us}, its largest), against 600 ms allowed for each drain. The second drain
     * comes once the thread went back to sleep after the follow, so without the wake-up it waits out nearly all of it.
     */
    @Test
    void shouldWakeTheIdleApplyThreadForADrainAndAPromotion() throws Exception {
        try (ApplierFixture f = oneRowApplied("woken", "woken", "apply.idle.max.park.us", "1000000")) {

            assertThat(f.applier().drain().get(600, TimeUnit.MILLISECONDS)).isEqualTo(10);
            f.applier().follow();
            Await.equalTo("the applier's state", Duration.ofSeconds(10), () -> f.status().state(), ApplierState.STREAMING);
            assertThat(f.applier().drain().get(600, TimeUnit.MILLISECONDS)).as("the second drain, the thread asleep again")
                    .isEqualTo(10);
            f.applier().promote(Duration.ofSeconds(10));
            assertThat(f.status().state()).isEqualTo(ApplierState.PROMOTED);
        }
    }

    /**
     * An applier from {@code source} with {@code settings}, which has applied one row (id 1, transaction 1 at commit
     * LSN 10) into a fresh table {@code table (id bigint PRIMARY KEY)}.
     */
    private static ApplierFixture oneRowApplied(String table, String source, String... settings) {
        Sql.write(replica, "CREATE TABLE " + table + " (id bigint PRIMARY KEY)");
        ApplierFixture f = ApplierFixture.start(replica, source, settings);
        f.feeder().send(relation(1, table, 'd', "id*")).transaction(1, 10, insert(1, i8(1)));
        f.awaitApplied(10);
        return f;
    }

    /** Refreshes the shipper's copy of the feedback until {@code condition} holds; 10 s at most. */
    private static void awaitFeedback(io.rdmarepl.channel.ring.FeedbackSnapshot feedback, Await.Condition condition) {
        Await.until("the feedback condition holds", Duration.ofSeconds(10), () -> feedback.refresh() && condition.holds());
    }

    @Test
    void shouldFindASequenceCreatedAfterTheApplierConnected() throws Exception {
        try (ApplierFixture f = oneRowApplied("early", "promotion-late", "promote.sequence.headroom", "10")) {
            // the applier's session prepared its query for the owned sequences when it connected, before this
            Sql.write(replica, "CREATE TABLE late (id serial PRIMARY KEY, v text)");
            f.feeder().send(relation(2, "late", 'd', "id*", "v")).transaction(2, 20, insert(2, i4(300), text("a")));
            f.awaitApplied(20);

            assertThat(f.applier().promote(Duration.ofSeconds(10))).containsEntry("public.late_id_seq", 310L);
        }
    }

    @Test
    void shouldMoveEveryShippedSequencePastItsLastReadingByHeadroomAndRate() throws Exception {
        Sql.write(replica, "CREATE SEQUENCE invoice_no; CREATE SEQUENCE countdown INCREMENT BY -1;"
                + " CREATE SEQUENCE quiet_reader; CREATE SEQUENCE single_reading; CREATE SEQUENCE moved_ahead;"
                + " CREATE TABLE orders (id serial PRIMARY KEY)");
        long sentMs = System.currentTimeMillis();
        try (ApplierFixture f = ApplierFixture.start(replica, "promotion-rate", "promote.sequence.headroom", "10",
                "promote.sequence.sync.interval.ms", "1000")) {
            f.feeder().send(
                    // 1000 values in the second between the last two readings, the last one just taken
                    sequence("invoice_no", 1000, true, 1000), sequence("invoice_no", 2000, true, 0),
                    sequence("countdown", -100, true, 1000), sequence("countdown", -300, true, 0),
                    // no reading for 20 s: the primary may have gone on at 100 a second all that time
                    sequence("quiet_reader", 100, true, 21_000), sequence("quiet_reader", 200, true, 20_000),
                    sequence("single_reading", 5, true, 0),
                    sequence("moved_ahead", 100, true, 1000), sequence("moved_ahead", 200, true, 0),
                    sequence("orders_id_seq", 50, true, 1000), sequence("orders_id_seq", 60, true, 0))
                    .send(relation(1, "orders", 'd', "id*")).transaction(1, 10, insert(1, i4(500)));
            f.awaitApplied(10);
            assertThat(Sql.rows(replica, "SELECT last_value FROM invoice_no")).containsExactly(java.util.List.of("2000"));
            Sql.write(replica, "SELECT setval('moved_ahead', 100000)"); // someone moved it on the replica: never back

            Map<String, Long> set = f.applier().promote(Duration.ofSeconds(10));
            long sinceSentS = (System.currentTimeMillis() - sentMs) / 1000 + 1; // bounds the time since the readings

            assertThat(set.get("public.invoice_no")).isBetween(2000L + 10 + 1000, 2000L + 10 + 1000 * Math.max(1, sinceSentS));
            assertThat(set.get("public.countdown")).isBetween(-300L - 10 - 200 * Math.max(1, sinceSentS), -300L - 10 - 200);
            assertThat(set.get("public.quiet_reader")).isBetween(200L + 10 + 100 * 20, 200L + 10 + 100 * (20 + sinceSentS));
            assertThat(set).containsEntry("public.single_reading", 15L)
                    .containsEntry("public.orders_id_seq", 510L) // its rows went further than its readings
                    .doesNotContainKey("public.moved_ahead");
            assertThat(Sql.rows(replica, "SELECT last_value, is_called FROM invoice_no"))
                    .containsExactly(java.util.List.of(Long.toString(set.get("public.invoice_no")), "t"));
            assertThat(Sql.rows(replica, "SELECT last_value FROM moved_ahead")).containsExactly(java.util.List.of("100000"));
        }
    }

    private static void clientInsert(String sql) throws SQLException {
        try (Connection c = replica.connect("postgres"); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
