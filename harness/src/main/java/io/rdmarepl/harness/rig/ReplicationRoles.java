package io.rdmarepl.harness.rig;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmarepl.applier.apply.Applier;
import io.rdmarepl.applier.config.ApplierConfig;
import io.rdmarepl.cli.admin.AdminServer;
import io.rdmarepl.cli.apply.ApplyCommand;
import io.rdmarepl.cli.ship.ShipCommand;
import io.rdmarepl.control.Guarantee;
import io.rdmarepl.shipper.Shipper;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.shipper.config.SyncSettings;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.ReplicationSlots;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    /** How long sync mode may take to come on once the slot streams. */
    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(60);
    /** Sync mode: a table of its own (on both servers, so it is published and applied) for the commits that prove sync on. */
    static final String PROBE_TABLE = "rdmarepl_rig_sync_probe";
    private static final String PROBE_SCHEMA = "CREATE TABLE IF NOT EXISTS " + PROBE_TABLE + " (id bigint PRIMARY KEY)";

    private final Path ring;
    private final Applier applier;
    private final AdminServer applierAdmin;
    private final Shipper shipper;
    private final AdminServer shipperAdmin;
    private final boolean sync;
    private final String sourceName;

    private ReplicationRoles(Path ring, Applier applier, AdminServer applierAdmin, Shipper shipper, AdminServer shipperAdmin,
                             boolean sync, String sourceName) {
        this.ring = ring;
        this.sync = sync;
        this.sourceName = sourceName;
        this.applier = applier;
        this.applierAdmin = applierAdmin;
        this.shipper = shipper;
        this.shipperAdmin = shipperAdmin;
    }

    /** {@link #start(String, PostgresServer, PostgresServer, Path, String, PrometheusMeterRegistry, boolean)} in async mode. */
    public static ReplicationRoles start(String sourceName, PostgresServer primary, PostgresServer replica, Path ring,
                                         String rolesToken, PrometheusMeterRegistry registry) {
        return start(sourceName, primary, replica, ring, rolesToken, registry, false);
    }

    /**
     * Starts the applier (it creates the ring) and its endpoint, then the shipper and its endpoint, and waits until
     * the shipper's slot streams; in sync mode also until sync is on as the shipper and the primary see it (its
     * replication connection listed in synchronous_standby_names and {@code sync} in pg_stat_replication), so every
     * commit from then on returns only once the replica holds it.
     *
     * @param ring the shm ring file; deleted by {@link #close()}
     * @param sync {@code replication.mode=sync} (strict: commits wait as long as the replica does not hold them). The
     *             database {@code postgres} of the primary is set to {@code synchronous_commit = on} first (the shipper
     *             refuses sync mode below it; servers started FAST run with it off), and {@value #PROBE_TABLE} is
     *             created on both servers
     */
    public static ReplicationRoles start(String sourceName, PostgresServer primary, PostgresServer replica, Path ring,
                                         String rolesToken, PrometheusMeterRegistry registry, boolean sync) {
        return start(sourceName, primary, replica, ring, rolesToken, registry, sync, null);
    }

    /**
     * As {@link #start(String, PostgresServer, PostgresServer, Path, String, PrometheusMeterRegistry, boolean)}, with the
     * applier's {@code apply.synchronous.commit}.
     *
     * @param applySynchronousCommit synchronous_commit of the applier's sessions; null: the applier's default (off: the
     *                               durable position it reports follows the replica's WAL flush, which the WAL writer does
     *                               every wal_writer_delay, so a sync commit waits about that long)
     */
    public static ReplicationRoles start(String sourceName, PostgresServer primary, PostgresServer replica, Path ring,
                                         String rolesToken, PrometheusMeterRegistry registry, boolean sync,
                                         String applySynchronousCommit) {
        if (sync) {
            primary.execute("ALTER DATABASE postgres SET synchronous_commit = on");
            primary.execute(PROBE_SCHEMA);
            replica.execute(PROBE_SCHEMA);
        }
        String ringUri = "shm://" + ring.toAbsolutePath();
        List<String> applying = new ArrayList<>(List.of("source.name", sourceName, "ring.uri", ringUri,
                "replica.jdbc.url", replica.jdbcUrl("postgres"), "admin.port", "0", "admin.token", rolesToken));
        if (applySynchronousCommit != null) {
            applying.addAll(List.of("apply.synchronous.commit", applySynchronousCommit));
        }
        Applier applier = Applier.start(ApplierConfig.of(applying.toArray(String[]::new)), registry);
        AdminServer applierAdmin = null;
        Shipper shipper = null;
        try {
            applierAdmin = ApplyCommand.adminServer(applier, registry).start();
            ShipperConfig shipping = shipperConfig(sourceName, primary, ringUri, rolesToken, sync, leaseDirectory(ring));
            shipper = Shipper.start(shipping, registry);
            AdminServer shipperAdmin = ShipCommand.adminServer(shipping, shipper, registry).start();
            ReplicationRoles roles = new ReplicationRoles(ring, applier, applierAdmin, shipper, shipperAdmin, sync, sourceName);
            try {
                ReplicationSlots.awaitActive(primary, shipping.slotName(), Duration.ofSeconds(60));
                if (sync) {
                    roles.awaitSyncOn(primary, SYNC_TIMEOUT);
                }
            } catch (RuntimeException | AssertionError e) { // an AssertionError: the slot did not stream in time
                roles.close();
                throw e;
            }
            return roles;
        } catch (RuntimeException | AssertionError e) {
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

    /**
     * Waits until sync is on as the primary sees it: the shipper says sync (synchronous_standby_names lists its
     * connection and the setting is reloaded) and the primary's {@code pg_stat_replication} shows its streaming
     * connection as {@code sync}, which it does only once the shipper confirmed a flush position. On a primary without
     * writes that takes a commit, so probe commits are made (one row each in {@value #PROBE_TABLE}); each returns once
     * the replica holds it, or at once while the primary's processes have not all reloaded the setting.
     *
     * @throws IllegalStateException with the shipper's {@code sync} status and the primary's view when sync failed or
     *                               is not on within {@code timeout}
     */
    private void awaitSyncOn(PostgresServer primary, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long probe = 0;
        while (true) {
            String state = shipper.guarantee().syncState();
            if ("sync".equals(state)) {
                if ("sync".equals(primarySyncState(primary))) {
                    return;
                }
                probe(primary, ++probe);
            }
            if ("failed".equals(state) || System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the shipper's sync mode is not on" + ("failed".equals(state) ? "" : " after "
                        + timeout.toSeconds() + " s") + ": " + syncStatus() + "; the primary's pg_stat_replication for it: "
                        + walSenders(primary) + "; " + probe + " probe commit(s); last error: " + shipper.failure());
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for sync mode", e);
            }
        }
    }

    /** One probe commit (bounded by a socket timeout: strict sync mode would wait as long as the replica does not answer). */
    private static void probe(PostgresServer primary, long id) {
        Properties properties = new Properties();
        properties.setProperty("socketTimeout", "10");
        try (Connection c = DriverManager.getConnection(primary.jdbcUrl("postgres"), properties);
             Statement s = c.createStatement()) {
            s.execute("INSERT INTO " + PROBE_TABLE + " (id) VALUES (" + id + ") ON CONFLICT (id) DO NOTHING");
        } catch (SQLException e) {
            // the deadline reports it
        }
    }

    /**
     * The primary's own view: {@code pg_stat_replication.sync_state} of the shipper's streaming replication connection
     * ({@code sync} once its walsender releases commits; {@code async} before the shipper confirmed any flush position,
     * or when it is not listed), or null when none streams or the primary does not answer.
     */
    public String primarySyncState(PostgresServer primary) {
        Map<String, Object> streaming = primaryStreaming(primary);
        return streaming == null ? null : (String) streaming.get("sync_state");
    }

    /** The sync-mode evidence of these roles on {@code primary}'s side ({@link FailoverTrial}); null in async mode. */
    public SyncWitness syncWitness(PostgresServer primary) {
        if (!sync) {
            return null;
        }
        return () -> {
            Guarantee guarantee = shipper.guarantee();
            return SyncWitness.document(guarantee.replicationMode(), guarantee.syncState(), guarantee.syncPolicy(),
                    guarantee.acknowledgedLsn(), primaryStreaming(primary), () -> applier().status().durableLsn(),
                    () -> walSenders(primary));
        };
    }

    /** The {@code pg_stat_replication} row of the shipper's streaming connection on the primary, or null. */
    public Map<String, Object> primaryStreaming(PostgresServer primary) {
        return WalSenders.streaming(primary, SyncSettings.applicationName(sourceName));
    }

    /** Every row of the primary's {@code pg_stat_replication} with the shipper's application_name (empty when it does not answer). */
    public List<Map<String, Object>> walSenders(PostgresServer primary) {
        return WalSenders.of(primary, SyncSettings.applicationName(sourceName));
    }

    /**
     * Where the shipper's lease file goes: beside the ring, in a directory of this run's own (another run on the host
     * may use the same source name), removed by {@link #close()}.
     */
    private static Path leaseDirectory(Path ring) {
        Path directory = ring.toAbsolutePath().resolveSibling(ring.getFileName() + ".lease");
        try {
            return Files.createDirectories(directory);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot create the lease directory " + directory, e);
        }
    }

    private static ShipperConfig shipperConfig(String sourceName, PostgresServer primary, String ringUri, String rolesToken, boolean sync,
                                               Path leaseDirectory) {
        Properties p = new Properties();
        p.setProperty("fence.lease.dir", leaseDirectory.toString());
        p.setProperty("source.name", sourceName);
        p.setProperty("database.host", PostgresServer.HOST);
        p.setProperty("database.port", Integer.toString(primary.port()));
        p.setProperty("database.user", PostgresServer.SUPERUSER);
        p.setProperty("standbys", "replica");
        p.setProperty("standby.replica.uri", ringUri);
        p.setProperty("admin.address", "127.0.0.1:0");
        p.setProperty("admin.token", rolesToken);
        p.setProperty("capture.poll.interval.ms", "1");
        if (sync) {
            p.setProperty("replication.mode", "sync"); // strict, one standby, remote_flush: the defaults
        }
        return ShipperConfig.load(p);
    }

    public Applier applier() {
        return applier;
    }

    public Shipper shipper() {
        return shipper;
    }

    /** Whether the shipper runs in sync mode. */
    public boolean sync() {
        return sync;
    }

    /** "sync" or "async". */
    public String mode() {
        return sync ? "sync" : "async";
    }

    /** The {@code sync} object of the shipper's {@code /status}: {@code mode}, and in sync mode {@code state}, {@code waiting_ms}... */
    @SuppressWarnings("unchecked")
    public Map<String, Object> syncStatus() {
        return (Map<String, Object>) shipper.status().get("sync");
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
                Path lease = ring.toAbsolutePath().resolveSibling(ring.getFileName() + ".lease");
                if (Files.isDirectory(lease)) {
                    try (java.util.stream.Stream<Path> files = Files.list(lease)) {
                        for (Path file : files.toList()) {
                            Files.deleteIfExists(file); // a guard that still runs (fencing) goes when its file is gone
                        }
                    }
                    Files.deleteIfExists(lease);
                }
            } catch (IOException ignored) {
                // a leftover file in /dev/shm: named by this process's pid, never reused by it
            }
        }
    }
}
