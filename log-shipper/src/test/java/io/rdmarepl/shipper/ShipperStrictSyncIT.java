package io.rdmarepl.shipper;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.shipper.config.SyncSettings;
import io.rdmarepl.testsupport.Await;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Strict sync mode through a shipper's start and restart: no commit returns before a standby holds it, from the moment
 * the slot exists. Found by partition scenario 4: a shipper just activated on a new primary was cut from its standby
 * before it listed itself in synchronous_standby_names, and its restart waited for the hidden standby with nothing
 * listed, so the primary acknowledged 4,896 commits no standby held.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ShipperStrictSyncIT extends SyncPrimaryPerClass {
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** A fresh slot (an activation): commits wait from its creation on, through the copy, not only once it streams. */
    @Test
    void aFreshSlotHoldsCommitsFromItsCreation() throws Exception {
        try (RingCollector standby = new RingCollector(1 << 20)) {
            standby.holdDurableAt(0); // receives, acknowledges nothing: the copy stays unacknowledged
            Properties p = properties("hold_fresh", standby.uri());
            p.setProperty("snapshot.mode", "initial");
            try (Shipper shipper = start(p)) {
                awaitListed("synchronous_standby_names listed once the slot exists, though nothing is acknowledged");
                assertThat(exists("SELECT 1 FROM pg_replication_slots WHERE slot_name = 'hold_fresh'")).isTrue();
                CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> primary.execute("INSERT INTO t VALUES (1)"));
                awaitCommitWaitingForTheStandby(commit);

                standby.acknowledgeReceived();
                Await.until("the held commit returned once the standby holds it", WAIT, commit::isDone);
                commit.get();
                standby.awaitRecords(records -> records.stream().anyMatch(r -> r instanceof ChangeRecord.Insert), 30_000);
                Await.until("sync mode on", WAIT, () -> syncState(shipper), "sync"::equals);
            }
        }
    }

    /**
     * A restart on its slot (a shipper killed before it listed itself, or an operator who cleared the setting), waiting
     * for a standby a partition hides: commits wait meanwhile, and return once the standby is back.
     */
    @Test
    void aRestartWaitingForAHiddenStandbyHoldsCommits() throws Exception {
        restartWaitingForAHiddenStandby("pgoutput", "hold_restart", 2);
    }

    /** The same with Debezium's engine: its sessions commit locally, so none of them waits for the shipper it serves. */
    @Test
    void aDebeziumRestartWaitingForAHiddenStandbyHoldsCommits() throws Exception {
        restartWaitingForAHiddenStandby("debezium", "hold_restart_dbz", 20);
    }

    private void restartWaitingForAHiddenStandby(String engine, String slot, int firstId) throws Exception {
        Properties settings = properties(slot, "shm:///nowhere");
        settings.setProperty("capture.engine", engine);
        try (RingCollector standby = new RingCollector(1 << 20); Shipper first = start(with(settings, standby.uri()))) {
            Await.until("sync mode on", WAIT, () -> syncState(first), "sync"::equals);
        }
        unlist();
        primary.execute("INSERT INTO t VALUES (" + firstId + ")"); // nothing listed: commits do not wait

        Path hidden = RingCollector.newPath(); // no ring there until the partition heals
        CompletableFuture<Shipper> restart = CompletableFuture.supplyAsync(() -> start(with(settings, "shm://" + hidden)));
        try {
            awaitListed("synchronous_standby_names listed while the restart waits for its standby");
            assertThat(restart).as("the restart still waits for the hidden standby").isNotDone();
            CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> primary.execute("INSERT INTO t VALUES (" + (firstId + 1) + ")"));
            awaitCommitWaitingForTheStandby(commit);

            try (RingCollector healed = new RingCollector(hidden, 1 << 20)) {
                Await.until("the held commit returned once the standby is back", WAIT, commit::isDone);
                commit.get();
                restart.get().close();
            }
        } finally {
            restart.thenAccept(Shipper::close);
        }
    }

    /**
     * The standby made a transaction durable, but the shipper that shipped it exited before it confirmed it to the
     * slot, so the primary's commit still waits. The next shipper is sent the transaction again and finds the standby's
     * acknowledgement already at it: it must confirm it to the slot then, since no acknowledgement will move again for
     * it. Found by partition scenario 4, where the only writer's commit waited for good.
     */
    @Test
    void aCommitTheStandbyHeldBeforeTheRestartIsReleasedByTheNextShipper() throws Exception {
        try (RingCollector standby = new RingCollector(1 << 20)) {
            Shipper exited = start(properties("resent", standby.uri()));
            Await.until("sync mode on", WAIT, () -> syncState(exited), "sync"::equals);
            standby.holdDurableAtReceived(); // receives, acknowledges nothing more: the commit waits
            CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> primary.execute("INSERT INTO t VALUES (4)"));
            standby.awaitRecords(records -> records.stream().anyMatch(r -> r instanceof ChangeRecord.Insert), 30_000);
            assertThat(commit).as("a sync commit the standby holds nothing of").isNotDone();

            exited.abandon(); // gone before it could confirm; the standby makes the transaction durable only now
            standby.acknowledgeReceived();

            try (Shipper next = start(properties("resent", standby.uri()))) {
                Await.until("the waiting commit returned", WAIT, commit::isDone);
                commit.get();
                try (Connection c = primary.connect("postgres"); Statement s = c.createStatement()) {
                    s.execute("INSERT INTO t VALUES (5)"); // and the next one too
                }
            }
        }
    }

    private static void awaitListed(String what) {
        Await.until(what, WAIT, () -> primary.show("synchronous_standby_names"), listed -> listed.contains(applicationName()));
    }

    /** The commit has not returned, and the primary shows its backend waiting for a synchronous standby. */
    private static void awaitCommitWaitingForTheStandby(CompletableFuture<Void> commit) {
        Await.until("the commit waiting for a synchronous standby (wait_event SyncRep)", WAIT,
                () -> commit.isDone() || exists("SELECT 1 FROM pg_stat_activity WHERE wait_event = 'SyncRep'"));
        assertThat(commit).as("a strict sync commit no standby holds").isNotDone();
    }

    private static boolean exists(String sql) throws java.sql.SQLException {
        try (Connection c = primary.connect("postgres"); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next();
        }
    }

    private static String applicationName() {
        return SyncSettings.applicationName(ShipperConfig.load(ShipperTestProperties.of(primary, "shm:///nowhere")).sourceName());
    }

    private Properties properties(String slot, String standbyUri) {
        return syncProperties(slot, "strict_sync", standbyUri);
    }

    private static Properties with(Properties settings, String standbyUri) {
        Properties p = new Properties();
        p.putAll(settings);
        p.setProperty("standby.a.uri", standbyUri);
        return p;
    }

    private static Shipper start(Properties p) {
        return Shipper.start(ShipperConfig.load(p), new TextChangeEncoding(), Map.of(), new SimpleMeterRegistry());
    }
}
