package io.rdmarepl.harness.rig;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmarepl.cli.admin.AdminServer;
import io.rdmarepl.cli.coordinate.CoordinatorEndpoint;
import io.rdmarepl.coordinator.StateStores;
import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.machine.Coordinator;
import io.rdmarepl.coordinator.state.HistoryEntry;
import io.rdmarepl.coordinator.store.StateStore;
import io.rdmarepl.testsupport.PostgresServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A failover coordinator in this process with its state in a file under a new temporary directory, configured as
 * {@code rdmarepl coordinate} would be for two members: {@value #PRIMARY} (the primary, with its shipper's admin
 * endpoint) and {@value #STANDBY} (the replica, with its applier's). Its admin endpoint serves the topology the
 * failover-aware clients follow.
 */
public final class InProcessCoordinator implements CoordinatorView, AutoCloseable {
    public static final String PRIMARY = "pga";
    public static final String STANDBY = "pgb";

    private final Path directory;
    private final StateStore store;
    private final Coordinator coordinator;
    private final AdminServer admin;

    private InProcessCoordinator(Path directory, StateStore store, Coordinator coordinator, AdminServer admin) {
        this.directory = directory;
        this.store = store;
        this.coordinator = coordinator;
        this.admin = admin;
    }

    /**
     * Starts the coordinator; detection keys are the defaults ({@code detect.*} in docs/configuration/coordinator.md).
     *
     * @param stateParent where the state directory is created; null: the system's temporary directory
     */
    public static InProcessCoordinator start(String cluster, PostgresServer primary, PostgresServer replica, ReplicationRoles roles,
                                             String rolesToken, PrometheusMeterRegistry registry, Path stateParent) {
        return start(cluster, primary, replica, roles, rolesToken, registry, stateParent, Map.of());
    }

    /**
     * As {@link #start(String, PostgresServer, PostgresServer, ReplicationRoles, String, PrometheusMeterRegistry, Path)},
     * with coordinator settings of the caller's (e.g. {@code detect.*}) over the rig's.
     */
    public static InProcessCoordinator start(String cluster, PostgresServer primary, PostgresServer replica, ReplicationRoles roles,
                                             String rolesToken, PrometheusMeterRegistry registry, Path stateParent,
                                             Map<String, String> settingsOverride) {
        Path directory;
        try {
            directory = stateParent == null ? Files.createTempDirectory("rdmarepl-coordinator-")
                    : Files.createTempDirectory(stateParent, "rdmarepl-coordinator-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the coordinator's state directory: " + e.getMessage(), e);
        }
        Properties c = new Properties();
        c.setProperty("cluster.name", cluster);
        c.setProperty("coordinator.name", cluster + "-coordinator");
        c.setProperty("members", PRIMARY + "," + STANDBY);
        c.setProperty("member." + PRIMARY + ".jdbc.url", primary.jdbcUrl("postgres"));
        c.setProperty("member." + PRIMARY + ".shipper.admin", roles.shipperAdmin().toString());
        c.setProperty("member." + STANDBY + ".jdbc.url", replica.jdbcUrl("postgres"));
        c.setProperty("member." + STANDBY + ".applier.admin", roles.applierAdmin().toString());
        c.setProperty("initial.primary", PRIMARY);
        c.setProperty("database.user", PostgresServer.SUPERUSER);
        c.setProperty("roles.admin.token", rolesToken);
        c.setProperty("state.store", "file");
        c.setProperty("state.file", directory.resolve("state.json").toString());
        c.setProperty("admin.address", "127.0.0.1:0");
        c.setProperty("admin.token", UUID.randomUUID().toString());
        settingsOverride.forEach(c::setProperty);
        CoordinatorConfig settings = CoordinatorConfig.load(c);
        StateStore store = StateStores.open(settings);
        Coordinator coordinator = null;
        try {
            coordinator = new Coordinator(settings, store).start();
            AdminServer admin = CoordinatorEndpoint.adminServer(coordinator, settings, registry).start();
            return new InProcessCoordinator(directory, store, coordinator, admin);
        } catch (RuntimeException e) {
            if (coordinator != null) {
                coordinator.close();
            }
            store.close();
            deleteQuietly(directory);
            throw e;
        }
    }

    /** http://127.0.0.1:port: what clients give {@code FailoverDataSourceConfig.coordinatorUrl}. */
    @Override
    public String url() {
        return "http://" + admin.address().getHostString() + ":" + admin.address().getPort();
    }

    /** The {@code /status} document. */
    @Override
    public Map<String, Object> status() {
        return coordinator.status();
    }

    public String phase() {
        return String.valueOf(coordinator.status().get("phase"));
    }

    @Override
    public List<HistoryEntry> history() {
        return coordinator.history();
    }

    /** {@value #STANDBY}. */
    @Override
    public String standby() {
        return STANDBY;
    }

    @Override
    public void close() {
        try {
            admin.close();
            coordinator.close();
        } finally {
            store.close();
            deleteQuietly(directory);
        }
    }

    /** Removes {@code directory} and everything in it, as far as it can (a temporary directory may be left behind). */
    public static void deleteQuietly(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind
        }
    }
}
