package io.rdmarepl.harness.bench.lag;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmarepl.applier.apply.Applier;
import io.rdmarepl.applier.config.ApplierConfig;
import io.rdmarepl.channel.shm.ShmPaths;
import io.rdmarepl.shipper.Shipper;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.shipper.config.SyncSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * rdmarepl as the system under test, wired as {@code rdmarepl ship} and {@code rdmarepl apply} wire it but
 * as threads of this process: the applier (it creates the ring) into {@link #targetDatabase()}, then the
 * shipper with Debezium on the bench database. A fresh slot, publication, ring and applied position every
 * round; the stage timers of each round's measured window are summed into {@link #stages()}. Synchronous
 * ({@code --mode sync}): the shipper runs with {@code replication.mode=sync} (strict) and lists its own replication
 * connection in {@code synchronous_standby_names}; the round starts once its /status says {@code sync}, and the
 * benchmark clears the setting when the shipper is gone (a strict shipper leaves it, so commits wait for its return).
 * <pre>
 *   primary --pgoutput--> Shipper (Debezium) --ring (shm | softrdma)--> Applier --JDBC--> replica
 * </pre>
 */
final class RdmareplSystem implements ReplicationSystem {
    static final String SLOT = "rdmarepl_lag_rdmarepl";
    /** The shipper's source.name: its replication connection is {@code rdmarepl_lag}. */
    static final String SOURCE_NAME = "lag";
    private static final long SYNC_TIMEOUT_S = 60;

    private final String transport;
    private final Endpoint primary;
    private final String benchDatabase;
    private final Endpoint replica;
    private final LagBenchSettings settings;
    private final boolean synchronous;
    private StageHistograms stages = StageHistograms.empty();
    private double backPressureSeconds;
    private PrometheusMeterRegistry registry;
    private CommitEvents events;
    private StageHistograms windowStart;
    private Applier applier;
    private Shipper shipper;
    private Path shmRing;

    RdmareplSystem(String transport, Endpoint primary, String benchDatabase, Endpoint replica, LagBenchSettings settings) {
        this(transport, primary, benchDatabase, replica, settings, false);
    }

    /** @param synchronous the shipper in replication.mode=sync ({@code --mode sync}) */
    RdmareplSystem(String transport, Endpoint primary, String benchDatabase, Endpoint replica, LagBenchSettings settings,
                   boolean synchronous) {
        this.synchronous = synchronous;
        this.transport = transport;
        this.primary = primary;
        this.benchDatabase = benchDatabase;
        this.replica = replica;
        this.settings = settings;
    }

    @Override
    public String name() {
        return "rdmarepl";
    }

    @Override
    public String transport() {
        return transport;
    }

    @Override
    public String label() {
        if (settings == null || !settings.syncMode()) {
            return "rdmarepl over " + transport;
        }
        return "rdmarepl " + (synchronous ? "sync" : "async") + " over " + transport;
    }

    @Override
    public String targetDatabase() {
        return "rdmarepl_lag_" + transport + (synchronous ? "_sync" : "");
    }

    @Override
    public boolean synchronous() {
        return synchronous;
    }

    @Override
    public Connection connectProbes() throws SQLException {
        return replica.connect(targetDatabase());
    }

    /** Sync mode as the shipper's /status and the primary's pg_stat_replication show it. */
    @Override
    public String notSynchronous() {
        if (!synchronous) {
            return null;
        }
        Shipper s = shipper;
        Object sync = s == null ? null : s.status().get("sync");
        Object state = sync instanceof Map<?, ?> m ? m.get("state") : null;
        Object degradations = sync instanceof Map<?, ?> m ? m.get("degradations") : null;
        if (!"sync".equals(state) || !(degradations instanceof Number n && n.longValue() == 0)) {
            return "shipper sync status " + sync;
        }
        String pg = SynchronousStandbys.syncState(primary, applicationName());
        return "sync".equals(pg) ? null : "pg_stat_replication sync_state of " + applicationName() + ": " + pg;
    }

    private static String applicationName() {
        return SyncSettings.applicationName(SOURCE_NAME);
    }

    @Override
    public void start(int round) {
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        // sync: the components' timers also tell when each transaction passed them (CommitEvents)
        events = synchronous ? new CommitEvents() : null;
        MeterRegistry meters = synchronous ? new CompositeMeterRegistry(Clock.SYSTEM, List.of(registry, events)) : registry;
        windowStart = null;
        String ringUri = ringUri(round);
        try {
            applier = Applier.start(applierConfig(ringUri), meters);
            shipper = Shipper.start(shipperConfig(ringUri), meters);
            Slots.awaitActive(primary, SLOT, Duration.ofSeconds(60));
            if (synchronous) {
                awaitSync();
                SynchronousStandbys.awaitListed(primary, applicationName(), Duration.ofSeconds(SYNC_TIMEOUT_S));
            }
        } catch (RuntimeException e) {
            stop();
            throw e;
        }
    }

    /** Until the shipper's /status says sync: it listed itself once its replication connection streamed. */
    private void awaitSync() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SYNC_TIMEOUT_S);
        Object sync = null;
        while (System.nanoTime() - deadline < 0) {
            sync = shipper.status().get("sync");
            Object state = sync instanceof Map<?, ?> m ? m.get("state") : null;
            if ("sync".equals(state)) {
                return;
            }
            if ("failed".equals(state) || shipper.failure() != null) {
                throw new IllegalStateException("the shipper could not enable sync mode: " + sync + "; " + shipper.failure());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        throw new IllegalStateException("the shipper's sync state is not sync within " + SYNC_TIMEOUT_S + " s: " + sync);
    }

    private ApplierConfig applierConfig(String ringUri) {
        Properties p = BenchRoleProperties.applier(settings.applierSettings(), SOURCE_NAME, replica, targetDatabase(), ringUri);
        p.setProperty("apply.synchronous.commit", settings.nativeSync());
        return ApplierConfig.load(p);
    }

    private String ringUri(int round) {
        if (transport.equals("softrdma")) {
            return "softrdma://127.0.0.1:" + freePort();
        }
        shmRing = ShmPaths.ring("rdmarepl-bench-lag-" + ProcessHandle.current().pid() + "-" + round + (synchronous ? "-sync" : ""));
        return "shm://" + shmRing;
    }

    private ShipperConfig shipperConfig(String ringUri) {
        Properties p = BenchRoleProperties.shipper(settings.shipperSettings(), SOURCE_NAME, primary, benchDatabase, SLOT,
                BenchTables.shipperList(), ringUri);
        p.setProperty("capture.poll.interval.ms", Integer.toString(settings.capturePollMs()));
        p.setProperty("replication.mode", synchronous ? "sync" : "async");
        if (synchronous) {
            p.setProperty("sync.level", settings.syncLevel());
        }
        return ShipperConfig.load(p);
    }

    @Override
    public void measuring() {
        windowStart = StageHistograms.take(registry);
    }

    @Override
    public String failure() {
        Shipper s = shipper;
        String shipping = s == null ? null : s.failure();
        if (shipping != null) {
            return "shipper: " + shipping;
        }
        Applier a = applier;
        return a != null && !a.healthy() ? "applier: " + a.status().toMap() : null;
    }

    @Override
    public String describe() {
        return "applier " + (applier == null ? "-" : applier.status().toMap()) + "; shipper " + (shipper == null ? "-" : shipper.status());
    }

    /** Time the shipper waited for room in the ring, over every round: above 0, the applier was the bottleneck. */
    double backPressureSeconds() {
        return backPressureSeconds;
    }

    private static double backPressureSeconds(Shipper shipper) {
        double total = 0;
        if (shipper.status().get("standbys") instanceof java.util.List<?> standbys) {
            for (Object standby : standbys) {
                if (standby instanceof java.util.Map<?, ?> m && m.get("back_pressure_seconds") instanceof Number n) {
                    total += n.doubleValue();
                }
            }
        }
        return total;
    }

    /** Sync: when each transaction of this round reached the ring and the replica's commit; null in async mode. */
    CommitEvents events() {
        return events;
    }

    /** Stage timers summed over every round's measured window. */
    StageHistograms stages() {
        return stages;
    }

    @Override
    public void stop() {
        if (registry != null && windowStart != null) {
            stages = stages.plus(StageHistograms.take(registry).minus(windowStart));
            windowStart = null;
        }
        try {
            if (shipper != null) {
                backPressureSeconds += backPressureSeconds(shipper);
                shipper.close();
            }
        } finally {
            shipper = null;
            try {
                if (synchronous) {
                    SynchronousStandbys.clear(primary); // a strict shipper leaves itself listed when it stops
                }
            } finally {
                try {
                    if (applier != null) {
                        applier.close();
                    }
                } finally {
                    applier = null;
                    deleteRing();
                    Slots.drop(primary, SLOT, Duration.ofSeconds(30));
                    primary.execute(benchDatabase, Endpoint.NO_STANDBY_WAIT + "DROP PUBLICATION IF EXISTS " + SLOT);
                }
            }
        }
    }

    private void deleteRing() {
        if (shmRing != null) {
            try {
                Files.deleteIfExists(shmRing);
            } catch (IOException ignored) {
                // a leftover file in /dev/shm named by this process's pid
            }
            shmRing = null;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port for softrdma: " + e.getMessage(), e);
        }
    }
}
