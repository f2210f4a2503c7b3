package io.rdmarepl.harness.bench.lag;

import java.util.Map;
import java.util.Properties;

/**
 * The properties a benchmark's in-process shipper and applier start from: one standby ("replica") over one ring,
 * admin endpoints on free ports. What {@code --shipper} and {@code --applier} add comes first, so the bench's own keys
 * win; each bench then adds what only it sets.
 */
public final class BenchRoleProperties {
    private BenchRoleProperties() {
    }

    /** A shipper capturing {@code tables} of {@code database} on {@code primary} through slot and publication {@code slot}. */
    public static Properties shipper(Map<String, String> extra, String sourceName, Endpoint primary, String database,
                                     String slot, String tables, String ringUri) {
        Properties p = new Properties();
        extra.forEach(p::setProperty);
        p.setProperty("source.name", sourceName);
        p.setProperty("database.host", primary.shipperHost());
        p.setProperty("database.port", Integer.toString(primary.port()));
        p.setProperty("database.name", database);
        p.setProperty("database.user", primary.user());
        p.setProperty("database.password", primary.password());
        p.setProperty("slot.name", slot);
        p.setProperty("publication.name", slot);
        p.setProperty("publication.tables", tables);
        p.setProperty("standbys", "replica");
        p.setProperty("standby.replica.uri", ringUri);
        p.setProperty("admin.address", "127.0.0.1:0");
        return p;
    }

    /** An applier reading {@code ringUri} into {@code database} on {@code replica}. */
    public static Properties applier(Map<String, String> extra, String sourceName, Endpoint replica, String database,
                                     String ringUri) {
        Properties p = new Properties();
        extra.forEach(p::setProperty);
        p.setProperty("source.name", sourceName);
        p.setProperty("ring.uri", ringUri);
        p.setProperty("replica.jdbc.url", replica.applierJdbcUrl(database));
        p.setProperty("replica.user", replica.user());
        p.setProperty("replica.password", replica.password());
        p.setProperty("admin.port", "0");
        return p;
    }
}
