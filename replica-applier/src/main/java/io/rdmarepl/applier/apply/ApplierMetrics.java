package io.rdmarepl.applier.apply;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * The applier's meters ({@code rdmarepl_applier_*} in Prometheus): apply rate, batch and group sizes,
 * apply latency and commit-to-applied lag histograms, ring and position gauges. Recorded on the apply
 * thread after each group, not per row.
 */
public final class ApplierMetrics {
    private final MeterRegistry registry;
    private final Counter transactions;
    private final Counter rows;
    private final Counter groups;
    private final Counter retries;
    private final Counter segmentsParallel;
    private final Counter segmentsAfterConflict;
    private final Counter segmentsAlone;
    private final Counter segmentsRetried;
    private final Counter copiedRows;
    private final Counter copyFallbacks;
    private final DistributionSummary batchRows;
    private final DistributionSummary groupTransactions;
    private final Timer applyLatency;
    private final Timer lag;
    private final List<Meter> snapshotMeters = new CopyOnWriteArrayList<>();

    public ApplierMetrics(MeterRegistry registry) {
        this.registry = registry;
        transactions = Counter.builder("rdmarepl.applier.transactions").description("Source transactions applied")
                .register(registry);
        rows = Counter.builder("rdmarepl.applier.rows").description("Row changes (and truncates) applied").register(registry);
        groups = Counter.builder("rdmarepl.applier.groups").description("Replica transactions committed").register(registry);
        retries = Counter.builder("rdmarepl.applier.retries").description("Groups retried after a failure or pause")
                .register(registry);
        segmentsParallel = segments(registry, "parallel", "Segments a worker took with nothing in flight to wait for");
        segmentsAfterConflict = segments(registry, "after_conflict",
                "Segments a worker took that start only once an earlier segment they meet committed");
        segmentsAlone = segments(registry, "alone", "Segments applied alone on the apply thread (a barrier record, a firing trigger, larger than memory)");
        segmentsRetried = segments(registry, "retried",
                "Times a segment did not commit (a failure, or it held a row an earlier one waited for) and the apply thread applied from it");
        copiedRows = Counter.builder("rdmarepl.applier.copied.rows")
                .description("Inserted rows sent as COPY (batches of at least apply.copy.min.rows inserts)").register(registry);
        copyFallbacks = Counter.builder("rdmarepl.applier.copy.fallbacks")
                .description("COPY batches of upserts that met a row already on the replica and went as statements")
                .register(registry);
        batchRows = DistributionSummary.builder("rdmarepl.applier.batch.rows").description("Rows per JDBC batch")
                .publishPercentileHistogram().maximumExpectedValue(100_000.0).register(registry);
        groupTransactions = DistributionSummary.builder("rdmarepl.applier.group.transactions")
                .description("Source transactions per replica transaction").publishPercentileHistogram()
                .maximumExpectedValue(1_000_000.0).register(registry);
        applyLatency = Timer.builder("rdmarepl.applier.apply.latency")
                .description("Time to apply and commit one group on the replica").publishPercentileHistogram()
                .publishPercentiles(0.5, 0.9, 0.99)
                .minimumExpectedValue(Duration.ofNanos(10_000)).maximumExpectedValue(Duration.ofSeconds(30))
                .register(registry);
        lag = Timer.builder("rdmarepl.applier.lag")
                .description("Commit on the primary to commit on the replica, per source transaction")
                .publishPercentileHistogram().publishPercentiles(0.5, 0.9, 0.99).minimumExpectedValue(Duration.ofNanos(10_000))
                .maximumExpectedValue(Duration.ofMinutes(10)).register(registry);
    }

    private static Counter segments(MeterRegistry registry, String path, String description) {
        return Counter.builder("rdmarepl.applier.segments").tag("path", path)
                .description("Parallel apply (apply.workers above 1): " + description).register(registry);
    }

    void segmentDispatched(boolean afterConflict) {
        (afterConflict ? segmentsAfterConflict : segmentsParallel).increment();
    }

    void segmentAlone() {
        segmentsAlone.increment();
    }

    void segmentRetried() {
        segmentsRetried.increment();
    }

    void copied(long rowCount) {
        copiedRows.increment(rowCount);
    }

    void copyFellBack() {
        copyFallbacks.increment();
    }

    void batch(int rowCount) {
        batchRows.record(rowCount);
    }

    void group(int transactionCount, int rowCount, long applyNs) {
        groups.increment();
        transactions.increment(transactionCount);
        rows.increment(rowCount);
        groupTransactions.record(transactionCount);
        applyLatency.record(applyNs, TimeUnit.NANOSECONDS);
    }

    void lagUs(long micros) {
        if (micros >= 0) {
            lag.record(micros, TimeUnit.MICROSECONDS);
        }
    }

    void retry() {
        retries.increment();
    }

    void missingRows(StatementShape shape, long count) {
        Counter.builder("rdmarepl.applier.rows.missing")
                .description("UPDATE or DELETE that found no row on the replica (counted, never silent)")
                .tag("table", shape.table()).tag("operation", shape.kind().displayName())
                .register(registry).increment(count);
    }

    /**
     * The gauges and counters read from {@code applier}'s status snapshot (any thread, at each scrape), and the age of
     * the last frame the ring delivered. With a null {@code applier} they read NaN: how the monitoring docs' test
     * lists every name without a running applier.
     */
    public void statusGauges(Applier applier) {
        gauge("rdmarepl.applier.state", "State code: 1 streaming, 2 retrying, 3 paused-schema, 4 paused-error, "
                + "5 draining, 6 promoted", applier, a -> a.status().state().code());
        gauge("rdmarepl.applier.lag.ms", "Since the primary committed the oldest transaction not yet applied",
                applier, a -> a.status().lagMs());
        gauge("rdmarepl.applier.last.message.age.ms", "Since the ring last delivered a frame (the shipper sends a"
                + " heartbeat every few ms while it captures)", applier, Applier::lastMessageAgeMs);
        gauge("rdmarepl.applier.ring.backlog.bytes", "Ring bytes written but not yet read", applier,
                a -> a.status().backlogBytes());
        gauge("rdmarepl.applier.applied.lsn", "Commit LSN of the last applied source transaction", applier,
                a -> a.status().appliedLsn());
        gauge("rdmarepl.applier.durable.lsn", "Commit LSN of the last source transaction the replica flushed", applier,
                a -> a.status().durableLsn());
        gauge("rdmarepl.applier.pending.transactions", "Received transactions not yet applied", applier,
                a -> a.status().pendingTransactions());
        counter("rdmarepl.applier.ring.refused.epoch.frames", "Frames refused because they carried a stale epoch",
                applier, a -> a.status().refusedEpochFrames());
        counter("rdmarepl.applier.transactions.skipped", "Transactions skipped because already applied (re-sent)",
                applier, a -> a.status().skippedTransactions());
        counter("rdmarepl.applier.transactions.discarded.partial",
                "Transactions cut short by a writer restart, dropped before any row was applied", applier,
                a -> a.status().discardedPartialTransactions());
    }

    /** A gauge read from the status snapshot (any thread). */
    <T> void gauge(String name, String description, T source, ToDoubleFunction<T> value) {
        snapshotMeters.add(Gauge.builder(name, source, value).description(description).register(registry));
    }

    /** A monotonic count read from the status snapshot (any thread). */
    <T> void counter(String name, String description, T source, ToDoubleFunction<T> value) {
        snapshotMeters.add(FunctionCounter.builder(name, source, value).description(description).register(registry));
    }

    /**
     * Removes the gauges and counters that read one applier's snapshot. The registry hands back an existing
     * meter of the same name, so without this an applier started after this one would publish this one's values.
     */
    void removeSnapshotMeters() {
        snapshotMeters.forEach(registry::remove);
        snapshotMeters.clear();
    }

    Timer lagTimer() {
        return lag;
    }
}
