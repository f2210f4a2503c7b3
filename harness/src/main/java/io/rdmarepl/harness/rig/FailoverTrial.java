package io.rdmarepl.harness.rig;

import io.rdmarepl.client.FailoverDataSource;
import io.rdmarepl.client.FailoverDataSourceConfig;
import io.rdmarepl.coordinator.state.HistoryEntry;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.history.Ack;
import io.rdmarepl.testsupport.history.ClientWriter;
import io.rdmarepl.testsupport.history.HistoryCheck;
import io.rdmarepl.testsupport.history.WriteHistory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * One unplanned failover, as an application sees it:
 * <pre>
 *   client --inTransaction--> FailoverDataSource --/topology long poll--> coordinator
 *      |                            |                                      | probe (JDBC), /status of the applier
 *      v                            v                                      v
 *   primary (SIGKILL of its postmaster)          replica (promoted: fence, drain, epoch, promote)
 * </pre>
 * The client writes one row per transaction at a rate (from one or several writer threads); after {@code warmup} the
 * primary's postmaster is killed with SIGKILL; once the coordinator reports PROMOTED the client writes on for
 * {@code after}; then the acknowledgements are checked against what the new primary holds and every server of the
 * pair is asked to take a write. In sync mode (a {@link SyncWitness} given) every transaction the old primary
 * acknowledged must be on the new one.
 */
public final class FailoverTrial {
    private static final Duration PROMOTED_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration NEW_PRIMARY_WRITES_TIMEOUT = Duration.ofSeconds(30);
    /** One client call may span a whole failover: it returns at the first commit on whichever server is primary then. */
    private static final Duration CLIENT_BUDGET = Duration.ofSeconds(15);

    private final PostgresServer primary;
    private final PostgresServer replica;
    private final CoordinatorView coordinator;
    private final Consumer<String> progress;
    private final SyncWitness syncWitness;

    /** An async-mode trial (the shipper's promise is not read). */
    public FailoverTrial(PostgresServer primary, PostgresServer replica, CoordinatorView coordinator, Consumer<String> progress) {
        this(primary, replica, coordinator, progress, null);
    }

    /** @param syncWitness the pair's sync-mode evidence: a sync-mode trial; null: async, nothing read */
    public FailoverTrial(PostgresServer primary, PostgresServer replica, CoordinatorView coordinator, Consumer<String> progress,
                         SyncWitness syncWitness) {
        this.primary = primary;
        this.replica = replica;
        this.coordinator = coordinator;
        this.progress = progress;
        this.syncWitness = syncWitness;
    }

    /** One writer; see {@link #run(int, int, Duration, Duration)}. */
    public FailoverOutcome run(int rate, Duration warmup, Duration after) throws Exception {
        return run(rate, 1, warmup, after);
    }

    /**
     * @param rate    client transactions per second in all; 0 = each writer as fast as it can
     * @param writers client writer threads, each with its own connection
     * @param warmup  how long the client writes to the healthy primary before the kill, from its first acknowledged commit
     * @param after   how long the client writes on once PROMOTED (at least one write acknowledged by the new primary)
     */
    public FailoverOutcome run(int rate, int writers, Duration warmup, Duration after) throws Exception {
        boolean sync = syncWitness != null;
        coordinator.awaitPhase("HEALTHY", Duration.ofSeconds(30));
        // what the coordinator did before this trial (a rehearsal's switchovers) is no part of it
        long trialStartWallMs = System.currentTimeMillis();
        FailoverDataSourceConfig config = FailoverDataSourceConfig.builder().coordinatorUrl(coordinator.url())
                .user(PostgresServer.SUPERUSER).password("").poolSize(Math.max(2, writers)).connectionTimeout(Duration.ofSeconds(10))
                .applicationName("rdmarepl-failover-client").build();
        try (FailoverDataSource dataSource = new FailoverDataSource(config)) {
            AtomicLong switchedNs = new AtomicLong();
            dataSource.addTopologyListener((previous, next) -> {
                if (next.primary() != null && coordinator.standby().equals(next.primary().name())) {
                    switchedNs.compareAndSet(0, System.nanoTime());
                }
            });
            long clientStartNs = System.nanoTime();
            ClientWriter client = ClientWriter.to(work -> dataSource.inTransaction(work::run, CLIENT_BUDGET)).name("rdmarepl-failover-client")
                    .writers(writers).ratePerSecond(rate).start();
            List<Path> leftovers = List.of();
            try {
                // the warmup counts from the first commit: opening the pool's connections may take a while
                awaitAcks(client, primary, Duration.ofSeconds(30), "the primary", () -> "");
                long firstAckMs = TimeUnit.NANOSECONDS.toMillis(firstAckNs(client, primary, clientStartNs) - clientStartNs);
                ProcessHandle postmaster = ProcessHandle.of(primary.pid())
                        .orElseThrow(() -> new IllegalStateException("the primary's postmaster (pid " + primary.pid() + ") is not running"));
                // read before the warmup, not at the kill: parsing every process's /proc maps made the JIT compile
                // BufferedReader.readLine in this JVM as the failover began, 15-41 ms of the standby's CPU
                leftovers = sharedMemoryOf(postmaster);
                Thread.sleep(warmup.toMillis()); // the workload before the fault, as long as asked: not a wait for something
                progress.accept("client acknowledged " + client.acknowledged() + " transactions; SIGKILL to the primary's postmaster (pid "
                        + primary.pid() + ")");
                // sync mode: what the primary enforced and the shipper promised an instant before the kill, and whether the
                // flush position the primary had been told was within what the replica held (read after it)
                Map<String, Object> syncAtKill = sync ? syncWitness.atKill() : Map.of();
                int inFlightAtKill = client.inFlight();
                long killWallMs = System.currentTimeMillis();
                long killNs = System.nanoTime();
                postmaster.destroyForcibly();
                // the coordinator is read once the client wrote to the new primary, not polled meanwhile: with the roles on
                // hosts of their own, each /status it answered during the failover took CPU from the standby's host
                awaitAcks(client, replica, PROMOTED_TIMEOUT.plus(NEW_PRIMARY_WRITES_TIMEOUT), "the new primary",
                        () -> "; the coordinator: " + coordinator.status().get("phase"));
                progress.accept("client: a write acknowledged by the new primary "
                        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killNs) + " ms after the kill; writes on");
                coordinator.awaitPhase("PROMOTED", PROMOTED_TIMEOUT);
                Map<String, Object> promoted = coordinator.awaitLastFailover(Duration.ofSeconds(5));
                Thread.sleep(after.toMillis()); // the workload after the failover, as long as asked: not a wait for something
                client.close();
                return outcome(client, promoted, killNs, killWallMs, trialStartWallMs, switchedNs.get(), sync ? "sync" : "async", writers,
                        syncAtKill, inFlightAtKill, firstAckMs);
            } finally {
                client.close();
                deleteQuietly(leftovers);
            }
        }
    }

    private FailoverOutcome outcome(ClientWriter client, Map<String, Object> promoted, long killNs, long killWallMs,
                                    long trialStartWallMs, long switchedNs, String mode, int writers, Map<String, Object> syncAtKill,
                                    int inFlightAtKill,
                                    long firstAckMs)
            throws SQLException {
        @SuppressWarnings("unchecked")
        Map<String, Object> report = (Map<String, Object>) promoted.get("last_failover");
        Set<Long> onNew = ids(replica);
        WriteHistory history = client.history();
        Set<Long> byOld = history.ids(ClientWriter.member(primary));
        Set<Long> byNew = history.ids(ClientWriter.member(replica));
        Set<Long> lost = HistoryCheck.lost(byOld, onNew);
        Set<Long> missing = HistoryCheck.lost(byNew, onNew);
        long firstOnNew = firstAckNs(client, replica, killNs);
        int writable = WritablePrimaries.count(primary, replica);
        Map<Long, Ack> acks = new HashMap<>();
        history.acks().forEach(ack -> acks.put(ack.id(), ack));
        int last100Ms = 0;
        int oldAfterKill = 0;
        for (Ack ack : history.acksBy(ClientWriter.member(primary))) {
            long sinceKillNs = ack.acknowledgedNs() - killNs;
            if (sinceKillNs >= 0) {
                oldAfterKill++;
            } else if (sinceKillNs > -TimeUnit.MILLISECONDS.toNanos(100)) {
                last100Ms++;
            }
        }
        List<String> lostDetail = lost.stream().sorted().limit(20).map(id -> {
            Ack ack = acks.get(id);
            double ms = (ack.acknowledgedNs() - killNs) / 1e6;
            return String.format("id %d acknowledged %.1f ms %s the kill after %.1f ms", id, Math.abs(ms), ms < 0 ? "before" : "after",
                    (ack.acknowledgedNs() - ack.invokedNs()) / 1e6);
        }).toList();
        Map<String, Object> coordinatorSays = new LinkedHashMap<>();
        if (report != null) {
            for (String key : List.of("replication_mode", "acknowledged_lsn", "applied_lsn", "kept")) {
                if (report.containsKey(key)) {
                    coordinatorSays.put(key, report.get(key));
                }
            }
        }
        return new FailoverOutcome(
                coordinator.standby().equals(promoted.get("primary")),
                String.valueOf(promoted.get("primary")),
                ((Number) promoted.get("epoch")).intValue(),
                number(report, "detection_ms"),
                afterKillMs(killWallMs, "SUSPECT", "FENCING"),
                number(report, "promotion_ms"),
                steps(report),
                afterKillMs(killWallMs, "PROMOTED"),
                switchedNs == 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(switchedNs - killNs),
                firstOnNew < 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(firstOnNew - killNs),
                byOld.size(),
                byNew.size(),
                lost.size(),
                missing.size(),
                history.size() - byOld.size() - byNew.size(),
                client.failures(),
                writable,
                report == null ? null : String.valueOf(report.get("message")),
                history(killWallMs, trialStartWallMs),
                transitionsBeforeKill(killWallMs, trialStartWallMs),
                Set.copyOf(lost),
                Set.copyOf(byOld),
                mode,
                writers,
                syncAtKill,
                inFlightAtKill,
                firstAckMs,
                last100Ms,
                oldAfterKill,
                latency(latenciesUs(history.acksBy(ClientWriter.member(primary)), killNs)),
                coordinatorSays,
                lostDetail,
                killWallMs,
                killNs);
    }

    /** {@code count}, {@code median}, {@code p99}, {@code max} of latencies in µs (nearest rank); empty when there are none. */
    private static Map<String, Object> latency(List<Long> latenciesUs) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (latenciesUs.isEmpty()) {
            return m;
        }
        long[] sorted = latenciesUs.stream().mapToLong(Long::longValue).sorted().toArray();
        m.put("count", sorted.length);
        m.put("median", sorted[rank(sorted.length, 0.5)]);
        m.put("p99", sorted[rank(sorted.length, 0.99)]);
        m.put("max", sorted[sorted.length - 1]);
        return m;
    }

    private static int rank(int n, double quantile) {
        return Math.max(0, (int) Math.ceil(quantile * n) - 1);
    }

    /** SIGKILL to the first transition into one of {@code phases} (the history is in wall-clock ms), or -1. */
    private long afterKillMs(long killWallMs, String... phases) {
        for (HistoryEntry entry : coordinator.history()) {
            if (entry.atMs() >= killWallMs && List.of(phases).contains(entry.to())) {
                return entry.atMs() - killWallMs;
            }
        }
        return -1;
    }

    /**
     * Every transition since the trial began (after the cluster was initialised), with its time relative to the kill
     * (negative: before it).
     */
    private List<Map<String, Object>> history(long killWallMs, long trialStartWallMs) {
        List<Map<String, Object>> entries = new ArrayList<>();
        for (HistoryEntry entry : coordinator.history()) {
            if (!"uninitialised".equals(entry.from()) && entry.atMs() >= trialStartWallMs) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("after_kill_ms", entry.atMs() - killWallMs);
                e.put("to", entry.to());
                e.put("reason", entry.reason());
                entries.add(e);
            }
        }
        return entries;
    }

    /** Transitions the coordinator made after the trial began and before the kill: a failover of a healthy primary. */
    private int transitionsBeforeKill(long killWallMs, long trialStartWallMs) {
        return (int) coordinator.history().stream()
                .filter(e -> !"uninitialised".equals(e.from()) && e.atMs() >= trialStartWallMs && e.atMs() < killWallMs).count();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> steps(Map<String, Object> report) {
        Object steps = report == null ? null : report.get("steps_ms");
        return steps instanceof Map<?, ?> m ? new LinkedHashMap<>((Map<String, Object>) m) : Map.of();
    }

    private static long number(Map<String, Object> report, String key) {
        Object value = report == null ? null : report.get(key);
        return value instanceof Number n ? n.longValue() : -1;
    }

    /** @param more what the failure reports after the client's failures, read once at the deadline */
    private static void awaitAcks(ClientWriter client, PostgresServer server, Duration timeout, String which,
                                  java.util.function.Supplier<String> more) {
        String member = ClientWriter.member(server);
        Await.until("a write of the client acknowledged by " + which, timeout, () -> client.history().count(member) > 0,
                () -> client.failures() + " failed transactions; last: " + client.lastFailure() + more.get());
    }

    /** The earliest acknowledgement by {@code server} at or after {@code sinceNs}, or -1. */
    private static long firstAckNs(ClientWriter client, PostgresServer server, long sinceNs) {
        return client.history().acksBy(ClientWriter.member(server)).stream().mapToLong(Ack::acknowledgedNs)
                .filter(ns -> ns - sinceNs >= 0).findFirst().orElse(-1);
    }

    /** How long each transaction of {@code acks} acknowledged before {@code beforeNs} took, in µs, in no order. */
    private static List<Long> latenciesUs(List<Ack> acks, long beforeNs) {
        return acks.stream().filter(ack -> ack.acknowledgedNs() - beforeNs < 0)
                .map(ack -> (ack.acknowledgedNs() - ack.invokedNs()) / 1000).toList();
    }

    /**
     * The POSIX shared memory segments ({@code /dev/shm/PostgreSQL.*}) a postmaster and its processes map: its control
     * segment, and the segments its backends create (the 1 MiB dynamic shared memory area of PostgreSQL 17, which the
     * postmaster itself does not map). A postmaster killed with SIGKILL cannot remove them, and its data directory
     * (whose next start would) is deleted, so the trial does.
     */
    private static List<Path> sharedMemoryOf(ProcessHandle postmaster) {
        Set<Path> segments = new LinkedHashSet<>();
        Stream.concat(Stream.of(postmaster), postmaster.children()).forEach(process -> {
            try (Stream<String> maps = Files.lines(Path.of("/proc", Long.toString(process.pid()), "maps"))) {
                maps.map(line -> line.substring(line.lastIndexOf(' ') + 1))
                        .filter(file -> file.startsWith("/dev/shm/PostgreSQL."))
                        .forEach(file -> segments.add(Path.of(file)));
            } catch (IOException | UncheckedIOException | IndexOutOfBoundsException e) {
                // not Linux, or the process is gone: nothing to clean
            }
        });
        return new ArrayList<>(segments);
    }

    private static void deleteQuietly(List<Path> files) {
        for (Path file : files) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // left in /dev/shm: a few kilobytes to a megabyte
            }
        }
    }

    /** Every id in {@link ClientWriter#TABLE} on {@code server}. */
    public static Set<Long> ids(PostgresServer server) throws SQLException {
        return ClientWriter.ids(server);
    }
}
