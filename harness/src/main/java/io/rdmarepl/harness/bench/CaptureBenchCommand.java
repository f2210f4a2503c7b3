package io.rdmarepl.harness.bench;

import io.rdmarepl.channel.shm.ShmPaths;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rdmarepl.shipper.Shipper;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.ReplicationSlots;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rdmarepl bench capture}: the shipper's share of the lag. A real primary (embedded, fsync
 * on), the shipper with Debezium, a shm ring read in this process:
 *
 * <pre>
 *   client --INSERT, commit returns--> primary --pgoutput--> Debezium --> shipper --> [ ring ] --> reader notes the Commit
 *   latency = Commit record visible in the ring - commit returned to the client (one clock)
 * </pre>
 *
 * Then the same with clients flat out, for the highest rate the capture keeps up with.
 */
@Command(name = "capture",
        mixinStandardHelpOptions = true,
        description = "Capture latency (primary commit returned -> transaction visible in the standby's ring) at a steady rate, "
                + "and the highest sustained capture rate.")
public final class CaptureBenchCommand implements Callable<Integer> {
    private static final int MAX_PROBES = 4_000_000;

    @Option(names = "--rate", defaultValue = "1000", description = "Transactions per second in the latency phase. Default: ${DEFAULT-VALUE}.")
    int rate;

    @Option(names = "--seconds", defaultValue = "10", description = "Length of each phase. Default: ${DEFAULT-VALUE}.")
    int seconds;

    @Option(names = "--clients", defaultValue = "4", description = "Clients in the maximum-rate phase. Default: ${DEFAULT-VALUE}.")
    int clients;

    @Option(names = "--poll-interval-ms", defaultValue = "1", description = "Debezium poll.interval.ms (capture.poll.interval.ms; the debezium engine only). Default: ${DEFAULT-VALUE}.")
    int pollIntervalMs;

    @Option(names = "--engine", defaultValue = "pgoutput", paramLabel = "pgoutput|debezium",
            description = "The shipper's capture.engine. Default: ${DEFAULT-VALUE}.")
    String engine;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (rate < 1 || rate > 100_000 || seconds < 1 || clients < 1 || clients > 64 || pollIntervalMs < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "invalid options: --rate 1..100000, --seconds >= 1, --clients 1..64, --poll-interval-ms >= 1");
        }
        PrintWriter progress = spec.commandLine().getErr();
        Path ring = ShmPaths.ring("rdmarepl-bench-capture-" + ProcessHandle.current().pid());
        say(progress, "starting PostgreSQL 17 (fsync on)");
        try (PostgresServer primary = PostgresServer.builder("bench_capture").durability(Durability.DURABLE).start();
             CaptureProbeReader reader = new CaptureProbeReader(ring, 64 << 20, MAX_PROBES)) {
            primary.execute("CREATE TABLE capture_probe (id bigint PRIMARY KEY, payload text)");
            try (Shipper shipper = Shipper.start(config(primary, reader.uri()), new SimpleMeterRegistry())) {
                ReplicationSlots.awaitActive(primary, "rdmarepl", java.time.Duration.ofSeconds(60));
                AtomicInteger ids = new AtomicInteger();
                say(progress, "warm-up: 2 s at " + rate + " tx/s");
                paced(primary, ids, 2, null);
                say(progress, "latency: " + seconds + " s at " + rate + " tx/s");
                Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
                long[] committedNs = new long[MAX_PROBES];
                int first = ids.get();
                paced(primary, ids, seconds, committedNs);
                int last = ids.get();
                awaitVisible(reader, last - 1, 30);
                long early = 0;
                for (int id = first; id < last; id++) {
                    long visible = reader.visibleNs(id);
                    if (visible == 0) {
                        throw new IllegalStateException("transaction " + id + " never became visible in the ring");
                    }
                    long lag = visible - committedNs[id];
                    if (lag < 0) {
                        early++;
                    }
                    latency.recordValue(Math.max(0, lag));
                }
                say(progress, "maximum rate: " + clients + " clients flat out for " + seconds + " s");
                Map<String, Object> max = flatOut(primary, reader, ids);
                // last, so the JIT has compiled what the load needed and the idle share is the steady one
                say(progress, "idle: " + seconds + " s without writes, measuring the shipper's CPU");
                double idleCpuPercent = idleCpuPercent(reader);
                Map<String, Object> report = report(latency, early, max, shipper);
                report.put("idle_shipper_cpu_percent_of_a_core", idleCpuPercent);
                if (json) {
                    spec.commandLine().getOut().println(new ObjectMapper().writeValueAsString(report));
                } else {
                    spec.commandLine().getOut().print(table(report));
                }
                spec.commandLine().getOut().flush();
            }
        }
        return 0;
    }

    private ShipperConfig config(PostgresServer primary, String ringUri) {
        Properties p = new Properties();
        p.setProperty("database.host", PostgresServer.HOST);
        p.setProperty("database.port", Integer.toString(primary.port()));
        p.setProperty("publication.tables", "public.capture_probe");
        p.setProperty("standbys", "bench");
        p.setProperty("standby.bench.uri", ringUri);
        p.setProperty("admin.address", "127.0.0.1:0");
        p.setProperty("capture.poll.interval.ms", Integer.toString(pollIntervalMs));
        p.setProperty("capture.engine", engine);
        return ShipperConfig.load(p);
    }

    /** One client inserting at {@code rate}; notes when each commit returned. */
    private void paced(PostgresServer primary, AtomicInteger ids, int durationSeconds, long[] committedNs) throws Exception {
        long intervalNs = 1_000_000_000L / rate;
        try (Connection c = primary.connect("postgres");
             PreparedStatement insert = c.prepareStatement("INSERT INTO capture_probe VALUES (?, 'probe')")) {
            long start = System.nanoTime();
            long end = start + TimeUnit.SECONDS.toNanos(durationSeconds);
            long due = start;
            while (due < end) {
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                int id = ids.getAndIncrement();
                insert.setLong(1, id);
                insert.executeUpdate();
                if (committedNs != null) {
                    committedNs[id] = System.nanoTime();
                }
                due += intervalNs;
            }
        }
    }

    private Map<String, Object> flatOut(PostgresServer primary, CaptureProbeReader reader, AtomicInteger ids) throws Exception {
        long txBefore = reader.transactions();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Thread> threads = new ArrayList<>();
        AtomicInteger committed = new AtomicInteger();
        for (int i = 0; i < clients; i++) {
            threads.add(new Thread(() -> {
                try (Connection c = primary.connect("postgres");
                     PreparedStatement insert = c.prepareStatement("INSERT INTO capture_probe VALUES (?, 'load')")) {
                    while (System.nanoTime() < deadline) {
                        int id = ids.getAndIncrement();
                        if (id >= MAX_PROBES) {
                            return;
                        }
                        insert.setLong(1, id);
                        insert.executeUpdate();
                        committed.incrementAndGet();
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "bench-client-" + i));
        }
        long start = System.nanoTime();
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        long loadNs = System.nanoTime() - start;
        long shippedDuringLoad = reader.transactions() - txBefore;
        long catchUpStart = System.nanoTime();
        awaitVisible(reader, ids.get() - 1, 120);
        long catchUpMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - catchUpStart);
        Map<String, Object> max = new LinkedHashMap<>();
        max.put("clients", clients);
        max.put("committed_tx_per_s", Math.round(committed.get() / (loadNs / 1e9)));
        max.put("captured_tx_per_s", Math.round(shippedDuringLoad / (loadNs / 1e9)));
        max.put("catch_up_ms", catchUpMs);
        return max;
    }

    /**
     * The shipper's share of one core while the primary takes no writes: this process's CPU time less the probe
     * reader's (the standby's part), over {@code --seconds}. In production the shipper is a process of its own;
     * here GC and JIT threads count against it, which only overstates it.
     */
    private double idleCpuPercent(CaptureProbeReader reader) {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        Map<Long, Long> threadsBefore = new java.util.HashMap<>();
        for (long id : threads.getAllThreadIds()) {
            threadsBefore.put(id, threads.getThreadCpuTime(id));
        }
        long processBefore = os.getProcessCpuTime();
        long readerBefore = reader.cpuNs();
        long start = System.nanoTime();
        LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(seconds));
        long wallNs = System.nanoTime() - start;
        long shipperNs = (os.getProcessCpuTime() - processBefore) - (reader.cpuNs() - readerBefore);
        if (!json) {
            List<String> busiest = new ArrayList<>();
            for (java.lang.management.ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
                if (info != null && threadsBefore.containsKey(info.getThreadId())) {
                    long used = threads.getThreadCpuTime(info.getThreadId()) - threadsBefore.get(info.getThreadId());
                    busiest.add(String.format("%08d %s %.2f%%", used / 1000, info.getThreadName(), 100.0 * used / wallNs));
                }
            }
            busiest.sort(java.util.Comparator.reverseOrder());
            say(spec.commandLine().getErr(), "idle CPU by thread: " + String.join(", ",
                    busiest.subList(0, Math.min(6, busiest.size())).stream().map(b -> b.substring(9)).toList()));
        }
        return Math.round(1000.0 * shipperNs / wallNs) / 10.0;
    }

    private static void awaitVisible(CaptureProbeReader reader, int id, int seconds) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (reader.visibleNs(Math.min(id, MAX_PROBES - 1)) == 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("transaction " + id + " not visible in the ring within " + seconds + " s");
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

    private Map<String, Object> report(Histogram latency, long early, Map<String, Object> max, Shipper shipper) {
        Map<String, Object> lat = new LinkedHashMap<>();
        lat.put("p50", latency.getValueAtPercentile(50) / 1000);
        lat.put("p90", latency.getValueAtPercentile(90) / 1000);
        lat.put("p99", latency.getValueAtPercentile(99) / 1000);
        lat.put("p999", latency.getValueAtPercentile(99.9) / 1000);
        lat.put("max", latency.getMaxValue() / 1000);
        lat.put("samples", latency.getTotalCount());
        lat.put("visible_before_commit_returned", early);
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("capture_engine", engine);
        report.put("rate", rate);
        report.put("seconds", seconds);
        report.put("poll_interval_ms", pollIntervalMs);
        report.put("capture_latency_us", lat);
        report.put("max_rate", max);
        report.put("shipper", shipper.status());
        return report;
    }

    @SuppressWarnings("unchecked")
    private static String table(Map<String, Object> report) {
        Map<String, Object> lat = (Map<String, Object>) report.get("capture_latency_us");
        Map<String, Object> max = (Map<String, Object>) report.get("max_rate");
        return String.format("rdmarepl bench capture (%s engine): commit returned -> visible in the ring, %s tx/s, poll.interval.ms %s (%s samples, us):%n"
                        + "  p50 %s  p90 %s  p99 %s  p99.9 %s  max %s%n"
                        + "maximum rate with %s clients: %s tx/s committed, %s tx/s captured, caught up %s ms after the load%n"
                        + "idle shipper: %s%% of one core%n",
                report.get("capture_engine"), report.get("rate"), report.get("poll_interval_ms"), lat.get("samples"), lat.get("p50"), lat.get("p90"), lat.get("p99"),
                lat.get("p999"), lat.get("max"), max.get("clients"), max.get("committed_tx_per_s"), max.get("captured_tx_per_s"),
                max.get("catch_up_ms"), report.get("idle_shipper_cpu_percent_of_a_core"));
    }

    private void say(PrintWriter progress, String message) {
        if (!json) {
            progress.println("bench capture: " + message);
            progress.flush();
        }
    }
}
