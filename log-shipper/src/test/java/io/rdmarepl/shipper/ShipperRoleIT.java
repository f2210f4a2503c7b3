package io.rdmarepl.shipper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rdmarepl.control.FenceAnswer;
import io.rdmarepl.control.RetireAnswer;
import io.rdmarepl.control.ShipperActivateAnswer;
import io.rdmarepl.format.Lsn;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.shipper.role.PrimarySlotDropper;
import io.rdmarepl.shipper.role.RoleState;
import io.rdmarepl.shipper.role.RunningShipper;
import io.rdmarepl.shipper.role.ShipperRole;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.ReplicationSlots;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A shipper beside a member that was a standby, activated and retired on a real primary: activation drops a stale
 * slot and copies every published table (never the applier's rdmarepl schema) from a fresh one, a fenced shipper is
 * activated again as soon as its engine let go of the slot, and retiring drops the slot.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ShipperRoleIT {
    private static PostgresServer primary;

    @BeforeAll
    static void startPrimary() {
        primary = PostgresServer.builder("role_primary").durability(Durability.FAST)
                .setting("synchronous_commit", "on").start();
        primary.execute("CREATE TABLE accounts (id int PRIMARY KEY, note text)");
        primary.execute("INSERT INTO accounts VALUES (1, 'one'), (2, 'two'), (3, 'three')");
        // what an applier left behind when this member was a standby
        primary.execute("CREATE SCHEMA rdmarepl");
        primary.execute("CREATE TABLE rdmarepl.applied_position (source text PRIMARY KEY, lsn text)");
        primary.execute("INSERT INTO rdmarepl.applied_position VALUES ('primary', '0/1000')");
        primary.execute("CREATE TABLE nothing_yet (id int PRIMARY KEY)");
    }

    @AfterAll
    static void stopPrimary() {
        if (primary != null) {
            primary.close();
        }
    }

    @Test
    void activationCopiesFromAFreshSlotAndRetirementDropsIt() throws Exception {
        String slot = "role_all";
        primary.execute("SELECT pg_create_logical_replication_slot('" + slot + "', 'pgoutput')"); // stale, from an earlier life
        long staleLsn = confirmedLsn(slot);
        primary.execute("INSERT INTO accounts VALUES (4, 'after the stale slot')");
        try (RingCollector standby = new RingCollector(1 << 20);
             ShipperRole role = role(config(slot, "", standby))) {
            assertThat(role.status()).containsEntry("role_state", "waiting").containsEntry("activation", "on-request")
                    .containsEntry("initial_copy", false);
            assertThat(role.healthy()).isTrue();

            assertThat(role.activate(7)).isEqualTo(new ShipperActivateAnswer("shipping", slot, "initial", true));
            ReplicationSlots.awaitActive(primary, slot, Duration.ofSeconds(60));
            assertThat(Lsn.compare(confirmedLsn(slot), staleLsn)).as("a fresh slot, at a later consistent point").isPositive();

            List<ChangeRecord> copy = awaitCopied(role, standby, r -> inserted(r, "accounts").size() >= 4);
            assertThat(inserted(copy, "accounts")).containsExactlyInAnyOrder("1", "2", "3", "4");
            assertThat(relations(copy)).as("the applier's bookkeeping is neither copied nor emptied")
                    .contains("public.accounts", "public.nothing_yet").doesNotContain("rdmarepl.applied_position");
            assertThat(copy).filteredOn(r -> r instanceof ChangeRecord.Truncate).hasSize(1);
            assertThat(role.status().get("copy_lsn")).isEqualTo(Lsn.format(copyLsn(copy)));

            assertThatThrownBy(() -> role.activate(7)).hasMessageContaining("already shipping");
            assertThatThrownBy(role::retire).hasMessageContaining("fence it first");

            primary.execute("UPDATE rdmarepl.applied_position SET lsn = '0/2000'");
            primary.execute("INSERT INTO accounts VALUES (5, 'streamed')");
            List<ChangeRecord> streamed = standby.awaitRecords(r -> inserted(r, "accounts").contains("5"), 30_000);
            assertThat(relations(streamed)).doesNotContain("rdmarepl.applied_position");
            assertThat(streamed).noneMatch(r -> r instanceof ChangeRecord.Update);

            // fenced and activated again at once: the fenced engine lets go of the slot, then it is dropped
            assertThat(role.fence("switchover")).isEqualTo(new FenceAnswer("fenced"));
            int before = standby.records().size();
            assertThat(role.activate(8)).isEqualTo(new ShipperActivateAnswer("shipping", slot, "initial", true));
            List<ChangeRecord> second = awaitCopied(role, standby,
                    r -> r.size() > before && inserted(r.subList(before, r.size()), "accounts").size() >= 5);
            assertThat(inserted(second.subList(before, second.size()), "accounts")).containsExactlyInAnyOrder("1", "2", "3", "4", "5");

            assertThat(role.fence("switchover")).isEqualTo(new FenceAnswer("fenced"));
            assertThat(role.retire()).isEqualTo(new RetireAnswer("retired", true, false));
            assertThat(slotExists(slot)).isFalse();
            assertThat(role.status()).containsEntry("role_state", "retired").containsEntry("initial_copy", false);
            assertThat(role.retire().slotDropped()).as("retiring again finds no slot").isFalse();
        }
    }

    @Test
    void aCopyOfEmptyTablesStillEmptiesTheStandbysAndEnds() throws Exception {
        String slot = "role_empty";
        try (RingCollector standby = new RingCollector(1 << 20);
             ShipperRole role = role(config(slot, "public.nothing_yet", standby))) {
            role.activate(null);
            List<ChangeRecord> copy = awaitCopied(role, standby,
                    r -> r.stream().anyMatch(c -> c instanceof ChangeRecord.Truncate) && ShippedTransactions.commits(r) >= 1);
            List<List<ChangeRecord>> transactions = ShippedTransactions.of(copy);
            assertThat(transactions).hasSize(1);
            assertThat(transactions.get(0)).extracting(r -> r.getClass().getSimpleName())
                    .containsExactly("Begin", "Relation", "Truncate", "Commit");
            assertThat(role.status().get("copy_lsn")).isEqualTo(Lsn.format(copyLsn(copy)));

            primary.execute("INSERT INTO nothing_yet VALUES (1)");
            standby.awaitRecords(r -> inserted(r, "nothing_yet").contains("1"), 30_000);
            role.fence("done");
            role.retire();
        }
    }

    /**
     * A strict sync shipper leaves its name in synchronous_standby_names when it stops (commits must not return without
     * a standby). Once its member is retired, a standby, nothing there may wait for it: a commit at synchronous_commit on
     * would hang for good.
     */
    @Test
    void retiringASyncShipperClearsSynchronousStandbyNames() throws Exception {
        String slot = "role_sync";
        primary.execute("ALTER SYSTEM SET synchronous_standby_names = '\"rdmarepl_primary\"'");
        primary.execute("SELECT pg_reload_conf()");
        try (RingCollector standby = new RingCollector(1 << 20)) {
            Properties p = properties(slot, "public.nothing_yet", standby);
            p.setProperty("replication.mode", "sync");
            try (ShipperRole role = role(ShipperConfig.load(p))) {
                assertThat(role.retire()).extracting(RetireAnswer::state, RetireAnswer::synchronousStandbyNamesCleared)
                        .containsExactly("retired", true);
            }
            Await.until("the primary reloaded synchronous_standby_names", Duration.ofSeconds(10),
                    () -> primary.show("synchronous_standby_names"), String::isEmpty);
        } finally {
            primary.execute("ALTER SYSTEM RESET synchronous_standby_names");
            primary.execute("SELECT pg_reload_conf()");
        }
    }

    /** Waits for the copy to be shipped and acknowledged: initial_copy false and a copy_lsn, as the coordinator does. */
    private static List<ChangeRecord> awaitCopied(ShipperRole role, RingCollector standby, Predicate<List<ChangeRecord>> copied)
            throws Exception {
        List<ChangeRecord> records = standby.awaitRecords(copied, 60_000);
        Await.until("the copy finished (initial_copy false, a copy_lsn)", Duration.ofSeconds(30), role::status,
                status -> !Boolean.TRUE.equals(status.get("initial_copy")) && status.get("copy_lsn") != null);
        assertThat(role.state()).isEqualTo(RoleState.SHIPPING);
        return records;
    }

    private static long copyLsn(List<ChangeRecord> records) {
        return records.stream().filter(r -> r instanceof ChangeRecord.Truncate).findFirst()
                .map(truncate -> {
                    ChangeRecord.Begin begin = null;
                    for (ChangeRecord r : records) {
                        if (r instanceof ChangeRecord.Begin b) {
                            begin = b;
                        }
                        if (r == truncate) {
                            break;
                        }
                    }
                    return begin.commitLsn();
                }).orElseThrow();
    }

    private static List<String> inserted(List<ChangeRecord> records, String table) {
        Map<Integer, String> names = relationIds(records);
        List<String> ids = new java.util.ArrayList<>();
        for (ChangeRecord r : records) {
            if (r instanceof ChangeRecord.Insert i && ("public." + table).equals(names.get(i.relationId()))) {
                ids.add(ShippedTransactions.text(i.newTuple().values().get(0)));
            } else if (r instanceof ChangeRecord.CopyChunk c && ("public." + table).equals(names.get(c.relationId()))) {
                ShippedTransactions.rows(c).forEach(row -> ids.add(row.get(0)));
            }
        }
        return ids;
    }

    private static List<String> relations(List<ChangeRecord> records) {
        return relationIds(records).values().stream().distinct().toList();
    }

    private static Map<Integer, String> relationIds(List<ChangeRecord> records) {
        Map<Integer, String> names = new java.util.HashMap<>();
        for (ChangeRecord r : records) {
            if (r instanceof ChangeRecord.Relation relation) {
                names.put(relation.relationId(), relation.schema() + "." + relation.table());
            }
        }
        return names;
    }

    private static ShipperRole role(ShipperConfig config) {
        return ShipperRole.waiting(config,
                (settings, lease) -> RunningShipper.of(Shipper.start(settings, new TextChangeEncoding(), Map.of(), new SimpleMeterRegistry(), lease)),
                new PrimarySlotDropper(config, Duration.ofSeconds(10)));
    }

    private static ShipperConfig config(String slot, String tables, RingCollector standby) {
        return ShipperConfig.load(properties(slot, tables, standby));
    }

    private static Properties properties(String slot, String tables, RingCollector standby) {
        Properties p = new Properties();
        p.setProperty("database.host", PostgresServer.HOST);
        p.setProperty("database.port", Integer.toString(primary.port()));
        p.setProperty("database.user", PostgresServer.SUPERUSER);
        p.setProperty("slot.name", slot);
        p.setProperty("publication.name", slot);
        p.setProperty("publication.tables", tables);
        p.setProperty("standbys", "a");
        p.setProperty("standby.a.uri", standby.uri());
        p.setProperty("admin.address", "127.0.0.1:0");
        p.setProperty("activation", "on-request");
        return p;
    }

    private static long confirmedLsn(String slot) throws Exception {
        try (Connection c = primary.connect("postgres"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = '" + slot + "'")) {
            assertThat(rs.next()).as("slot %s exists", slot).isTrue();
            return Lsn.parse(rs.getString(1));
        }
    }

    private static boolean slotExists(String slot) throws Exception {
        try (Connection c = primary.connect("postgres"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "'")) {
            return rs.next();
        }
    }
}
