package io.rdmarepl.shipper;

import io.rdmarepl.testsupport.PostgresServer;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/** What the sync-mode shipper tests share: their settings, the shipper's sync state, and a primary left unlisted. */
final class SyncShipping {
    private SyncShipping() {
    }

    /** A sync-mode shipper of {@code publication} on {@code slot} to one standby, with no lease and an admin port. */
    static Properties properties(PostgresServer primary, String slot, String publication, String standbyUri, Path leaseDir) {
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

    /**
     * Clears synchronous_standby_names, as a shipper that stopped does not: a commit a failed trial left waiting
     * returns, and the next trial's shipper lists itself anew.
     */
    static void unlist(PostgresServer primary) {
        primary.execute("ALTER SYSTEM RESET synchronous_standby_names");
        primary.execute("SELECT pg_reload_conf()");
    }
}
