package io.rdmarepl.shipper.ship;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.rdmarepl.format.Lsn;
import io.rdmarepl.shipper.config.StandbyConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** What the shipper counts per standby, for /metrics and /status. Written by the standby threads. */
public final class ShipMetrics {
    private final List<StandbyConfig> standbys;
    private final Counter[] transactions;
    private final Timer[] captureLag;
    private final Timer[] backPressure;
    private final AtomicLong[] appliedLsn;
    private final AtomicLong[] durableLsn;
    private final AtomicLong[] occupancy;
    private final AtomicLong[] lastCommitTimeUs;
    private final MeterRegistry registry;
    private final List<Meter> gauges = new ArrayList<>();
    private final Counter sequencesShipped;
    private final AtomicLong lastSequenceSyncMs = new AtomicLong();

    public ShipMetrics(MeterRegistry registry, List<StandbyConfig> standbys) {
        this.registry = registry;
        this.standbys = standbys;
        int n = standbys.size();
        transactions = new Counter[n];
        captureLag = new Timer[n];
        backPressure = new Timer[n];
        appliedLsn = new AtomicLong[n];
        durableLsn = new AtomicLong[n];
        occupancy = new AtomicLong[n];
        lastCommitTimeUs = new AtomicLong[n];
        for (int i = 0; i < n; i++) {
            String name = standbys.get(i).name();
            transactions[i] = Counter.builder("rdmarepl_shipper_transactions").tag("standby", name)
                    .description("transactions written into the standby's ring").register(registry);
            captureLag[i] = Timer.builder("rdmarepl_shipper_commit_to_ring").tag("standby", name)
                    .description("primary commit to the transaction's last record in the ring").publishPercentileHistogram()
                    .publishPercentiles(0.5, 0.9, 0.99)
                    .minimumExpectedValue(Duration.ofNanos(100_000)).maximumExpectedValue(Duration.ofSeconds(30)).register(registry);
            backPressure[i] = Timer.builder("rdmarepl_shipper_back_pressure").tag("standby", name)
                    .description("time spent waiting for room in the standby's ring").register(registry);
            appliedLsn[i] = gauge("rdmarepl_shipper_applied_lsn", name);
            durableLsn[i] = gauge("rdmarepl_shipper_durable_lsn", name);
            occupancy[i] = gauge("rdmarepl_shipper_ring_used_bytes", name);
            lastCommitTimeUs[i] = new AtomicLong();
        }
        sequencesShipped = Counter.builder("rdmarepl_shipper_sequences_shipped")
                .description("sequence states read on the primary that changed, shipped to every standby").register(registry);
        gauges.add(Gauge.builder("rdmarepl_shipper_sequences_last_sync_timestamp_seconds", lastSequenceSyncMs, ms -> ms.get() / 1000.0)
                .description("when the primary's sequences were last read (Unix time; 0 before the first reading)")
                .register(registry));
    }

    private AtomicLong gauge(String metric, String standby) {
        AtomicLong value = new AtomicLong();
        gauges.add(Gauge.builder(metric, value, AtomicLong::get).tag("standby", standby).register(registry));
        return value;
    }

    /** Sync mode's state (0 async, 1 enabling, 2 sync, 3 degraded, 4 failed), how often it degraded, how long commits wait. */
    public void syncGauges(io.rdmarepl.shipper.sync.SyncGate sync) {
        gauges.add(Gauge.builder("rdmarepl_shipper_sync_state", sync, s -> s.state().code())
                .description("0 async, 1 enabling, 2 sync (commits wait for the standbys), 3 degraded to async, 4 failed")
                .register(registry));
        gauges.add(Gauge.builder("rdmarepl_shipper_sync_degradations", sync, s -> s.degradations())
                .description("times sync mode degraded to async because the standbys did not answer in time").register(registry));
        gauges.add(Gauge.builder("rdmarepl_shipper_sync_waiting_ms", sync, s -> s.waitingMs())
                .description("how long the oldest commit not yet held by the standbys has waited for them (0 when none"
                        + " waits); in strict mode the primary's commits wait as long as it takes").register(registry));
    }

    /**
     * Takes this shipper's gauges out of the registry: one registered again under the same name and tags would keep
     * reading the first shipper's value, so a shipper started later in the same process (an activation) could not
     * report its own. Counters and timers stay and go on counting across shippers, as Prometheus expects.
     */
    public void close() {
        gauges.forEach(registry::remove);
    }

    void shipped(int standby, long commitTimeUs) {
        transactions[standby].increment();
        lastCommitTimeUs[standby].set(commitTimeUs);
        long lagUs = System.currentTimeMillis() * 1000L - commitTimeUs;
        if (commitTimeUs > 0 && lagUs >= 0) {
            captureLag[standby].record(lagUs, TimeUnit.MICROSECONDS);
        }
    }

    /** A reading of the primary's sequences succeeded at {@code timeMs}; {@code changed} states are to be shipped. */
    public void sequencesSynced(long timeMs, int changed) {
        lastSequenceSyncMs.set(timeMs);
        sequencesShipped.increment(changed);
    }

    void backPressured(int standby, long waitedNs) {
        backPressure[standby].record(waitedNs, TimeUnit.NANOSECONDS);
    }

    void feedback(int standby, long applied, long durable, long writerPosition, long consumerPosition, int capacity) {
        appliedLsn[standby].set(applied);
        durableLsn[standby].set(durable);
        occupancy[standby].set(Math.max(0, Math.min(capacity, writerPosition - consumerPosition)));
    }

    /** Per-standby figures for /status. */
    public List<Map<String, Object>> standbyStatus() {
        List<Map<String, Object>> list = new ArrayList<>();
        for (int i = 0; i < standbys.size(); i++) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("name", standbys.get(i).name());
            s.put("uri", standbys.get(i).uri().text());
            s.put("required", standbys.get(i).required());
            s.put("transactions_shipped", (long) transactions[i].count());
            s.put("applied_lsn", Lsn.format(appliedLsn[i].get()));
            s.put("durable_lsn", Lsn.format(durableLsn[i].get()));
            s.put("ring_used_bytes", occupancy[i].get());
            s.put("back_pressure_seconds", backPressure[i].totalTime(TimeUnit.MILLISECONDS) / 1000.0);
            long lastUs = lastCommitTimeUs[i].get();
            s.put("last_shipped_commit_age_ms", lastUs == 0 ? null : (System.currentTimeMillis() * 1000L - lastUs) / 1000);
            list.add(s);
        }
        return list;
    }
}
