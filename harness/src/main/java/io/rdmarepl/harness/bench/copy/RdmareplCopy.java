package io.rdmarepl.harness.bench.copy;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmarepl.applier.apply.Applier;
import io.rdmarepl.applier.config.ApplierConfig;
import io.rdmarepl.channel.shm.ShmPaths;
import io.rdmarepl.harness.bench.lag.BenchRoleProperties;
import io.rdmarepl.harness.bench.lag.Endpoint;
import io.rdmarepl.harness.bench.lag.Slots;
import io.rdmarepl.format.Lsn;
import io.rdmarepl.shipper.Shipper;
import io.rdmarepl.shipper.capture.CopyProgressText;
import io.rdmarepl.shipper.config.ShipperConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * rdmarepl's initial copy with the native engine, wired as {@code rdmarepl ship} and {@code rdmarepl apply} wire it
 * but as threads of this process, as {@code bench lag} runs them: the applier (it creates the shm ring) into
 * {@link #targetDatabase()}, then the shipper with {@code snapshot.mode=initial} on a fresh slot. Timed from the
 * shipper's start; done when the applier applied the copy's closing transaction (after every chunk): its position
 * moved, to the copy's consistent point.
 * <pre>
 *   primary --COPY (snapshot.parallel.tables sessions)--> Shipper --shm ring--> Applier --JDBC--> replica
 * </pre>
 */
final class RdmareplCopy implements CopySystem {
    static final String SLOT = "rdmarepl_copy_rdmarepl";

    private final Endpoint primary;
    private final String benchDatabase;
    private final Endpoint replica;
    private final Map<String, String> shipperSettings;
    private final Map<String, String> applierSettings;
    private Path ring;
    private Applier applier;
    private Shipper shipper;
    private String lastCopyProgress;

    /** @param shipperSettings, applierSettings what {@code --shipper} and {@code --applier} add */
    RdmareplCopy(Endpoint primary, String benchDatabase, Endpoint replica, Map<String, String> shipperSettings,
                 Map<String, String> applierSettings) {
        this.primary = primary;
        this.benchDatabase = benchDatabase;
        this.replica = replica;
        this.shipperSettings = shipperSettings;
        this.applierSettings = applierSettings;
    }

    @Override
    public String name() {
        return "rdmarepl";
    }

    @Override
    public String targetDatabase() {
        return SLOT;
    }

    /** The applier first, waiting on its ring: not timed ({@link #start()} is). */
    @Override
    public void prepare(int round) {
        ring = ShmPaths.ring("rdmarepl-bench-copy-" + ProcessHandle.current().pid() + "-" + round);
        applier = Applier.start(applierConfig(), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }

    @Override
    public void start() {
        shipper = Shipper.start(shipperConfig(), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }

    /**
     * The applier's position moved: in a fresh replica database it stays at 0 through every chunk of the copy (they are
     * flagged) and moves with the copy's closing transaction. No SQL on the primary ({@code /status} would ask it).
     */
    @Override
    public boolean done() {
        Map<String, Object> copy = shipper.copyProgress();
        if (copy != null) {
            lastCopyProgress = CopyProgressText.line(copy);
        }
        return applier.status().appliedLsn() != 0;
    }

    /** The applier's position must be the copy's consistent point. */
    @Override
    public String check() {
        Object copyLsn = shipper.status().get("copy_lsn");
        long applied = applier.status().appliedLsn();
        return copyLsn != null && Lsn.parse(copyLsn.toString()) == applied ? null
                : "the applier's position " + Lsn.format(applied) + " is not the copy's consistent point " + copyLsn;
    }

    /**
     * {@code back_pressure_seconds}: how long the shipper waited for room in the ring (the applier was the bottleneck
     * that long); {@code rows_applied}, {@code transactions_applied} (the chunks) by the applier.
     */
    @Override
    public Map<String, Object> details() {
        Map<String, Object> m = new LinkedHashMap<>();
        double waited = 0;
        if (shipper.status().get("standbys") instanceof java.util.List<?> standbys) {
            for (Object standby : standbys) {
                if (standby instanceof Map<?, ?> s && s.get("back_pressure_seconds") instanceof Number n) {
                    waited += n.doubleValue();
                }
            }
        }
        m.put("back_pressure_seconds", Math.round(waited * 1000) / 1000.0);
        m.put("rows_applied", applier.status().rowsApplied());
        m.put("transactions_applied", applier.status().transactionsApplied());
        return m;
    }

    @Override
    public String failure() {
        if (shipper != null && shipper.failure() != null) {
            return "shipper: " + shipper.failure();
        }
        return applier != null && !applier.healthy() ? "applier: " + applier.status().toMap() : null;
    }

    @Override
    public String progress() {
        return String.format(Locale.ROOT, "%,d rows applied; shipper: %s", applier.status().rowsApplied(),
                lastCopyProgress == null ? "-" : lastCopyProgress);
    }

    @Override
    public Map<String, Object> settings() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("capture_engine", "pgoutput");
        m.put("transport", "shm");
        ShipperConfig config = shipperConfig();
        m.put("snapshot.parallel.tables", config.snapshotParallelTables());
        m.put("snapshot.chunk.bytes", config.snapshotChunkBytes());
        m.put("shipper", shipperSettings);
        m.put("applier", applierSettings);
        return m;
    }

    private ApplierConfig applierConfig() {
        return ApplierConfig.load(BenchRoleProperties.applier(applierSettings, "copy", replica, targetDatabase(), "shm://" + ring));
    }

    private ShipperConfig shipperConfig() {
        Properties p = BenchRoleProperties.shipper(shipperSettings, "copy", primary, benchDatabase, SLOT,
                PgbenchTables.shipperList(), "shm://" + (ring == null ? "/dev/shm/not-started" : ring));
        p.setProperty("capture.engine", "pgoutput");
        p.setProperty("snapshot.mode", "initial");
        return ShipperConfig.load(p);
    }

    @Override
    public void close() {
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
                if (ring != null) {
                    try {
                        Files.deleteIfExists(ring);
                    } catch (IOException ignored) {
                        // a file in /dev/shm named by this process's pid
                    }
                    ring = null;
                }
                Slots.drop(primary, SLOT, Duration.ofSeconds(30));
                primary.execute(benchDatabase, Endpoint.NO_STANDBY_WAIT + "DROP PUBLICATION IF EXISTS " + SLOT);
            }
        }
    }
}
