package io.rdmarepl.harness.bench.lag.catchup;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmarepl.applier.apply.Applier;
import io.rdmarepl.applier.config.ApplierConfig;
import io.rdmarepl.channel.shm.ShmPaths;
import io.rdmarepl.harness.bench.lag.BenchRoleProperties;
import io.rdmarepl.harness.bench.lag.Endpoint;
import io.rdmarepl.harness.bench.lag.Slots;
import io.rdmarepl.shipper.Shipper;
import io.rdmarepl.shipper.config.ShipperConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * rdmarepl catching up, wired as {@code rdmarepl ship} and {@code rdmarepl apply} wire it but as threads of this
 * process: the applier (it creates the ring) into {@link #targetDatabase()}, then the shipper (pgoutput) on a slot of
 * its own. Paused as an outage pauses it, the way {@code ALTER SUBSCRIPTION ... DISABLE} pauses PostgreSQL's: shipper
 * and applier stopped, the slot kept. Resumed by starting both again: the shipper streams from the slot, the applier
 * resumes after {@code rdmarepl.applied_position}; the catch-up therefore includes decoding the backlog, as PostgreSQL's
 * does. With {@code apply.workers} when the applier knows the key ({@link ApplyWorkers}).
 * <pre>
 *   primary --pgoutput--> Shipper --ring (shm | softrdma)--> Applier (apply.workers) --JDBC--> replica
 * </pre>
 */
final class RdmareplCatchUp implements CatchUpSystem {
    private static final String SOURCE_NAME = "catchup";
    private static final Duration SLOT_TIMEOUT = Duration.ofSeconds(60);

    private final String transport;
    private final int workers;
    private final boolean workersKnown;
    private final Endpoint primary;
    private final String benchDatabase;
    private final Endpoint replica;
    private final CatchUpSettings settings;
    private Applier applier;
    private PrometheusMeterRegistry applierMetrics;
    private Shipper shipper;
    private Path shmRing;
    private int round;
    private boolean attached;

    /** @param workersKnown whether the applier has the {@code apply.workers} key ({@link ApplyWorkers#known()}) */
    RdmareplCatchUp(String transport, int workers, boolean workersKnown, Endpoint primary, String benchDatabase, Endpoint replica,
                    CatchUpSettings settings) {
        this.transport = transport;
        this.workers = workers;
        this.workersKnown = workersKnown;
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
    public String label() {
        return "rdmarepl over " + transport + ", " + ApplyWorkers.KEY + "=" + workers;
    }

    @Override
    public Integer applyWorkers() {
        return workers;
    }

    @Override
    public String transport() {
        return transport;
    }

    @Override
    public String targetDatabase() {
        return "rdmarepl_catchup_" + transport + "_w" + workers;
    }

    @Override
    public void attach(int round) {
        this.round = round;
        attached = true;
        start();
        Slots.awaitStreaming(primary, targetDatabase(), SLOT_TIMEOUT);
    }

    @Override
    public void pause() {
        stop();
        Slots.awaitInactive(primary, targetDatabase(), SLOT_TIMEOUT);
    }

    @Override
    public void resume() {
        start();
    }

    private void start() {
        String ringUri = ringUri();
        try {
            applierMetrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            applier = Applier.start(applierConfig(ringUri), applierMetrics);
            shipper = Shipper.start(shipperConfig(ringUri), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        } catch (RuntimeException e) {
            stop();
            throw e;
        }
    }

    private ApplierConfig applierConfig(String ringUri) {
        Properties p = BenchRoleProperties.applier(settings.applierSettings(), SOURCE_NAME, replica, targetDatabase(), ringUri);
        p.setProperty("apply.synchronous.commit", settings.nativeSync());
        ApplyWorkers.set(p, workers, workersKnown);
        return ApplierConfig.load(p);
    }

    private ShipperConfig shipperConfig(String ringUri) {
        Properties p = BenchRoleProperties.shipper(settings.shipperSettings(), SOURCE_NAME, primary, benchDatabase, targetDatabase(),
                TpcbTables.shipperList(), ringUri);
        p.setProperty("capture.poll.interval.ms", Integer.toString(settings.capturePollMs()));
        p.setProperty("replication.mode", "async");
        return ShipperConfig.load(p);
    }

    /** A fresh ring at every start: the applier creates it, the shipper attaches to it. */
    private String ringUri() {
        if (transport.equals("softrdma")) {
            return "softrdma://127.0.0.1:" + freePort();
        }
        shmRing = ShmPaths.ring("rdmarepl-bench-catchup-" + ProcessHandle.current().pid() + "-w" + workers + "-" + round);
        return "shm://" + shmRing;
    }

    /**
     * {@code back_pressure_seconds}: how long the shipper waited for room in the ring (the applier was the bottleneck that
     * long); {@code transactions_applied} and {@code rows_applied} by the applier since it resumed; {@code apply_segments}, with
     * {@code apply.workers} above 1, the applier's segments by path since it started.
     */
    @Override
    public Map<String, Object> details() {
        Map<String, Object> m = new LinkedHashMap<>();
        Shipper s = shipper;
        Applier a = applier;
        if (s == null || a == null) {
            return m;
        }
        double waited = 0;
        if (s.status().get("standbys") instanceof List<?> standbys) {
            for (Object standby : standbys) {
                if (standby instanceof Map<?, ?> st && st.get("back_pressure_seconds") instanceof Number n) {
                    waited += n.doubleValue();
                }
            }
        }
        m.put("back_pressure_seconds", Math.round(waited * 1000) / 1000.0);
        m.put("transactions_applied", a.status().transactionsApplied());
        m.put("rows_applied", a.status().rowsApplied());
        Map<String, Object> segments = new LinkedHashMap<>();
        applierMetrics.find("rdmarepl.applier.segments").counters()
                .forEach(c -> segments.put(c.getId().getTag("path"), (long) c.count()));
        if (!segments.isEmpty()) {
            m.put("apply_segments", segments); // since this applier started: parallel, after_conflict, alone, retried
        }
        return m;
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

    @Override
    public void detach() {
        if (!attached) {
            return;
        }
        attached = false;
        try {
            stop();
        } finally {
            Slots.drop(primary, targetDatabase(), Duration.ofSeconds(30));
            primary.execute(benchDatabase, "DROP PUBLICATION IF EXISTS " + targetDatabase());
        }
    }

    /** Shipper first (it writes into the applier's ring), then the applier; the slot stays. */
    private void stop() {
        try {
            if (shipper != null) {
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
