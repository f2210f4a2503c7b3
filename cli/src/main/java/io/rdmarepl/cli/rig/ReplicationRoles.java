package io.rdmarepl.cli.rig;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmarepl.applier.apply.Applier;
import io.rdmarepl.applier.config.ApplierConfig;
import io.rdmarepl.cli.admin.AdminServer;
import io.rdmarepl.cli.apply.ApplyCommand;
import io.rdmarepl.cli.ship.ShipCommand;
import io.rdmarepl.shipper.Shipper;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.ReplicationSlots;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;

/**
 * The shipper beside {@code primary} and the applier beside {@code replica}, as threads of this process but wired
 * as {@code rdmarepl ship} and {@code rdmarepl apply} wire them: each with its admin endpoint on a free loopback
 * port ({@link ShipCommand#adminServer}, {@link ApplyCommand#adminServer}), control actions behind
 * {@code rolesToken}, so a coordinator drives them over HTTP exactly as it drives separate processes.
 * <pre>
 *   primary --pgoutput--> Shipper --shm ring--> Applier --JDBC--> replica
 *                         admin: /fence          admin: /status /drain /promote
 * </pre>
 */
public final class ReplicationRoles implements AutoCloseable {
    private final Path ring;
    private final Applier applier;
    private final AdminServer applierAdmin;
    private final Shipper shipper;
    private final AdminServer shipperAdmin;

    private ReplicationRoles(Path ring, Applier applier, AdminServer applierAdmin, Shipper shipper, AdminServer shipperAdmin) {
        this.ring = ring;
        this.applier = applier;
        this.applierAdmin = applierAdmin;
        this.shipper = shipper;
        this.shipperAdmin = shipperAdmin;
    }

    /**
     * Starts the applier (it creates the ring) and its endpoint, then the shipper and its endpoint, and waits until
     * the shipper's slot streams.
     *
     * @param ring the shm ring file; deleted by {@link #close()}
     */
    public static ReplicationRoles start(String sourceName, PostgresServer primary, PostgresServer replica, Path ring,
                                         String rolesToken, PrometheusMeterRegistry registry) {
        String ringUri = "shm://" + ring.toAbsolutePath();
        Applier applier = Applier.start(ApplierConfig.of("source.name", sourceName, "ring.uri", ringUri,
                "replica.jdbc.url", replica.jdbcUrl("postgres"), "admin.port", "0", "admin.token", rolesToken), registry);
        AdminServer applierAdmin = null;
        Shipper shipper = null;
        try {
            applierAdmin = ApplyCommand.adminServer(applier, registry).start();
            ShipperConfig shipping = shipperConfig(sourceName, primary, ringUri, rolesToken);
            shipper = Shipper.start(shipping, registry);
            AdminServer shipperAdmin = ShipCommand.adminServer(shipping, shipper, registry).start();
            ReplicationRoles roles = new ReplicationRoles(ring, applier, applierAdmin, shipper, shipperAdmin);
            try {
                ReplicationSlots.awaitActive(primary, shipping.slotName(), Duration.ofSeconds(60));
            } catch (RuntimeException e) {
                roles.close();
                throw e;
            }
            return roles;
        } catch (RuntimeException e) {
            if (shipper != null) {
                shipper.close();
            }
            if (applierAdmin != null) {
                applierAdmin.close();
            }
            applier.close();
            throw e;
        }
    }

    private static ShipperConfig shipperConfig(String sourceName, PostgresServer primary, String ringUri, String rolesToken) {
        Properties p = new Properties();
        p.setProperty("source.name", sourceName);
        p.setProperty("database.host", PostgresServer.HOST);
        p.setProperty("database.port", Integer.toString(primary.port()));
        p.setProperty("database.user", PostgresServer.SUPERUSER);
        p.setProperty("standbys", "replica");
        p.setProperty("standby.replica.uri", ringUri);
        p.setProperty("admin.address", "127.0.0.1:0");
        p.setProperty("admin.token", rolesToken);
        p.setProperty("capture.poll.interval.ms", "1");
        return ShipperConfig.load(p);
    }

    public Applier applier() {
        return applier;
    }

    public Shipper shipper() {
        return shipper;
    }

    /** http://127.0.0.1:port of the applier's admin endpoint ({@code member.<name>.applier.admin}). */
    public URI applierAdmin() {
        return base(applierAdmin);
    }

    /** http://127.0.0.1:port of the shipper's admin endpoint ({@code member.<name>.shipper.admin}). */
    public URI shipperAdmin() {
        return base(shipperAdmin);
    }

    public String ringUri() {
        return "shm://" + ring.toAbsolutePath();
    }

    private static URI base(AdminServer admin) {
        return URI.create("http://" + admin.address().getHostString() + ":" + admin.address().getPort());
    }

    /** Stops the shipper at once (after a failover it is fenced anyway), then the applier, and deletes the ring. */
    @Override
    public void close() {
        try {
            shipperAdmin.close();
            shipper.close();
        } finally {
            applierAdmin.close();
            applier.close();
            try {
                Files.deleteIfExists(ring);
            } catch (IOException ignored) {
                // a leftover file in /dev/shm: named by this process's pid, never reused by it
            }
        }
    }
}
