package io.rdmarepl.shipper;

import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the sync-mode shipper tests share: one primary for the class (synchronous_commit on, a table {@code t}), left
 * unlisted after each test, their shipper settings, and the shipper's sync state.
 */
abstract class SyncPrimaryPerClass {
    static PostgresServer primary;

    @TempDir
    Path leaseDir;

    @BeforeAll
    static void startPrimary() {
        primary = PostgresServer.builder("sync_primary").durability(Durability.FAST).setting("synchronous_commit", "on").start();
        primary.execute("CREATE TABLE t (id int PRIMARY KEY)");
    }

    @AfterAll
    static void stopPrimary() {
        primary.close();
    }

    /**
     * Clears synchronous_standby_names, as a shipper that stopped does not: a commit a failed test left waiting
     * returns, and the next test's shipper lists itself anew.
     */
    @AfterEach
    void unlist() {
        primary.execute("ALTER SYSTEM RESET synchronous_standby_names");
        primary.execute("SELECT pg_reload_conf()");
    }

    /** A sync-mode shipper of {@code publication} on {@code slot} to one standby, with no lease and an admin port. */
    Properties syncProperties(String slot, String publication, String standbyUri) {
        Properties p = ShipperTestProperties.of(primary, standbyUri);
        p.setProperty("slot.name", slot);
        p.setProperty("publication.name", publication);
        p.setProperty("replication.mode", "sync");
        p.setProperty("admin.address", "127.0.0.1:0");
        p.setProperty("fence.lease.ms", "0");
        p.setProperty("fence.lease.dir", leaseDir.toString());
        return p;
    }

    /** {@code /status}'s {@code sync.state}: enabling, sync, degraded, ... */
    static String syncState(Shipper shipper) {
        @SuppressWarnings("unchecked")
        Map<String, Object> sync = (Map<String, Object>) shipper.status().get("sync");
        return (String) sync.get("state");
    }
}
