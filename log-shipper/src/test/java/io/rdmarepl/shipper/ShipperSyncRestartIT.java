package io.rdmarepl.shipper;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sync mode across a shipper's restart: the standby made a transaction durable, but the shipper that shipped it exited
 * before it confirmed it to the slot, so the primary's commit still waits. The next shipper is sent the transaction
 * again and finds the standby's acknowledgement already at it: it must confirm it to the slot then, since no
 * acknowledgement will move again for it. Found by partition scenario 4, where the only writer's commit waited for good.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShipperSyncRestartIT {
    @TempDir
    Path leaseDir;

    @Test
    void aCommitTheStandbyHeldBeforeTheRestartIsReleasedByTheNextShipper() throws Exception {
        try (PostgresServer primary = PostgresServer.builder("sync_restart").durability(Durability.FAST)
                .setting("synchronous_commit", "on").start();
             RingCollector standby = new RingCollector(1 << 20)) {
            primary.execute("CREATE TABLE t (id int PRIMARY KEY)");
            Shipper exited = start(primary, standby);
            Await.until("sync mode on", Duration.ofSeconds(30), () -> syncState(exited), "sync"::equals);
            standby.holdDurableAtReceived(); // receives, acknowledges nothing more: the commit waits
            CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> primary.execute("INSERT INTO t VALUES (1)"));
            standby.awaitRecords(records -> records.stream().anyMatch(r -> r instanceof ChangeRecord.Insert), 30_000);
            assertThat(commit).as("a sync commit the standby holds nothing of").isNotDone();

            exited.abandon(); // gone before it could confirm; the standby makes the transaction durable only now
            standby.acknowledgeReceived();

            try (Shipper next = start(primary, standby)) {
                Await.until("the waiting commit returned", Duration.ofSeconds(30), commit::isDone);
                commit.get();
                try (Connection c = primary.connect("postgres"); Statement s = c.createStatement()) {
                    s.execute("INSERT INTO t VALUES (2)"); // and the next one too
                }
                next.close();
            } finally {
                primary.execute("ALTER SYSTEM RESET synchronous_standby_names");
                primary.execute("SELECT pg_reload_conf()");
            }
        }
    }

    private static String syncState(Shipper shipper) {
        @SuppressWarnings("unchecked")
        Map<String, Object> sync = (Map<String, Object>) shipper.status().get("sync");
        return (String) sync.get("state");
    }

    private Shipper start(PostgresServer primary, RingCollector standby) {
        Properties p = ShipperTestProperties.of(primary, standby.uri());
        p.setProperty("slot.name", "sync_restart");
        p.setProperty("publication.name", "sync_restart");
        p.setProperty("replication.mode", "sync");
        p.setProperty("admin.address", "127.0.0.1:0");
        p.setProperty("fence.lease.ms", "0");
        p.setProperty("fence.lease.dir", leaseDir.toString());
        return Shipper.start(ShipperConfig.load(p), new TextChangeEncoding(), Map.of(), new SimpleMeterRegistry());
    }
}
