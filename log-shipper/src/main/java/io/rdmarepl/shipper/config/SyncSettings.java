package io.rdmarepl.shipper.config;

/**
 * {@code replication.mode} and the {@code sync.*} keys. In sync mode the primary lists the shipper's replication
 * connection in {@code synchronous_standby_names}, so a commit returns to its client only once the shipper
 * confirmed its LSN, which it does once {@code standbys} required standbys hold it.
 *
 * @param enabled        replication.mode=sync
 * @param standbys       sync.standbys: how many required standbys must hold a commit (ANY k)
 * @param applied        sync.level=remote_apply: held means applied (visible there), not only durable
 * @param degradeAfterMs sync.degrade.after.ms: 0 = strict (commits wait as long as it takes); otherwise after
 *                       this long waiting, fall back to async until the standbys caught up
 */
public record SyncSettings(boolean enabled, int standbys, boolean applied, long degradeAfterMs) {
    public static final SyncSettings ASYNC = new SyncSettings(false, 1, false, 0);

    /** The application_name of the shipper's replication connection, the name synchronous_standby_names lists. */
    public static String applicationName(String sourceName) {
        return "rdmarepl_" + sourceName.replaceAll("[^A-Za-z0-9_]", "_");
    }

    public boolean strict() {
        return degradeAfterMs == 0;
    }

    /** "strict", or "degrade after N ms": as /status and the coordinator show it. */
    public String policy() {
        return strict() ? "strict" : "degrade after " + degradeAfterMs + " ms";
    }

    public String describe() {
        if (!enabled) {
            return "async";
        }
        return "sync (" + standbys + " standby(s), " + (applied ? "remote_apply" : "remote_flush") + ", "
                + policy() + ")";
    }
}
