package io.rdmarepl.cli.bench.lag;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmarepl.applier.apply.Applier;
import io.rdmarepl.applier.config.ApplierConfig;
import io.rdmarepl.channel.shm.ShmPaths;
import io.rdmarepl.shipper.Shipper;
import io.rdmarepl.shipper.config.ShipperConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;

/**
 * rdmarepl as the system under test, wired as {@code rdmarepl ship} and {@code rdmarepl apply} wire it but
 * as threads of this process: the applier (it creates the ring) into {@link #targetDatabase()}, then the
 * shipper with Debezium on the bench database. A fresh slot, publication, ring and applied position every
 * round; the stage timers of each round's measured window are summed into {@link #stages()}.
 * <pre>
 *   primary --pgoutput--> Shipper (Debezium) --ring (shm | softrdma)--> Applier --JDBC--> replica
 * </pre>
 */
final class RdmareplSystem implements ReplicationSystem {
    static final String SLOT = "rdmarepl_lag_rdmarepl";

    private final String transport;
    private final Endpoint primary;
    private final String benchDatabase;
    private final Endpoint replica;
    private final LagBenchSettings settings;
    private StageHistograms stages = StageHistograms.empty();
    private double backPressureSeconds;
    private PrometheusMeterRegistry registry;
    private StageHistograms windowStart;
    private Applier applier;
    private Shipper shipper;
    private Path shmRing;

    RdmareplSystem(String transport, Endpoint primary, String benchDatabase, Endpoint replica, LagBenchSettings settings) {
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
        return "rdmarepl over " + transport;
    }

    @Override
    public String targetDatabase() {
        return "rdmarepl_lag_" + transport;
    }

    @Override
    public void start(int round) {
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        windowStart = null;
        String ringUri = ringUri(round);
        try {
            applier = Applier.start(ApplierConfig.of(
                    "source.name", "lag",
                    "ring.uri", ringUri,
                    "replica.jdbc.url", replica.jdbcUrl(targetDatabase()),
                    "replica.user", replica.user(),
                    "replica.password", replica.password(),
                    "apply.synchronous.commit", settings.nativeSync(),
                    "admin.port", "0"), registry);
            shipper = Shipper.start(shipperConfig(ringUri), registry);
            Slots.awaitActive(primary, SLOT, Duration.ofSeconds(60));
        } catch (RuntimeException e) {
            stop();
            throw e;
        }
    }

    private String ringUri(int round) {
        if (transport.equals("softrdma")) {
            return "softrdma://127.0.0.1:" + freePort();
        }
        shmRing = ShmPaths.ring("rdmarepl-bench-lag-" + ProcessHandle.current().pid() + "-" + round);
        return "shm://" + shmRing;
    }

    private ShipperConfig shipperConfig(String ringUri) {
        Properties p = new Properties();
        p.setProperty("source.name", "lag");
        p.setProperty("database.host", primary.host());
        p.setProperty("database.port", Integer.toString(primary.port()));
        p.setProperty("database.name", benchDatabase);
        p.setProperty("database.user", primary.user());
        p.setProperty("database.password", primary.password());
        p.setProperty("slot.name", SLOT);
        p.setProperty("publication.name", SLOT);
        p.setProperty("publication.tables", BenchTables.shipperList());
        p.setProperty("standbys", "replica");
        p.setProperty("standby.replica.uri", ringUri);
        p.setProperty("admin.address", "127.0.0.1:0");
        p.setProperty("capture.poll.interval.ms", Integer.toString(settings.capturePollMs()));
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
                if (applier != null) {
                    applier.close();
                }
            } finally {
                applier = null;
                deleteRing();
                Slots.drop(primary, SLOT, Duration.ofSeconds(30));
                primary.execute(benchDatabase, "DROP PUBLICATION IF EXISTS " + SLOT);
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
