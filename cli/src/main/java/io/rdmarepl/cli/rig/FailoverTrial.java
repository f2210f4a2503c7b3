package io.rdmarepl.cli.rig;

import io.rdmarepl.client.FailoverDataSource;
import io.rdmarepl.client.FailoverDataSourceConfig;
import io.rdmarepl.coordinator.state.HistoryEntry;
import io.rdmarepl.testsupport.PostgresServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
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
 * The client writes one row per transaction at a rate; after {@code warmup} the primary's postmaster is killed with
 * SIGKILL; once the coordinator reports PROMOTED the client writes on for {@code after}; then the acknowledgements
 * are checked against what the new primary holds and every server of the pair is asked to take a write.
 */
public final class FailoverTrial {
    private static final Duration PROMOTED_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration NEW_PRIMARY_WRITES_TIMEOUT = Duration.ofSeconds(30);

    private final PostgresServer primary;
    private final PostgresServer replica;
    private final InProcessCoordinator coordinator;
    private final Consumer<String> progress;

    public FailoverTrial(PostgresServer primary, PostgresServer replica, InProcessCoordinator coordinator, Consumer<String> progress) {
        this.primary = primary;
        this.replica = replica;
        this.coordinator = coordinator;
        this.progress = progress;
    }

    /**
     * @param rate   client transactions per second; 0 = as fast as one client can
     * @param warmup how long the client writes to the healthy primary before the kill
     * @param after  how long the client writes on once PROMOTED (at least one write acknowledged by the new primary)
     */
    public FailoverOutcome run(int rate, Duration warmup, Duration after) throws Exception {
        coordinator.awaitPhase("HEALTHY", Duration.ofSeconds(30));
        FailoverDataSourceConfig config = FailoverDataSourceConfig.builder().coordinatorUrl(coordinator.url())
                .user(PostgresServer.SUPERUSER).password("").poolSize(2).connectionTimeout(Duration.ofSeconds(10))
                .applicationName("rdmarepl-failover-client").build();
        try (FailoverDataSource dataSource = new FailoverDataSource(config)) {
            AtomicLong switchedNs = new AtomicLong();
            dataSource.addTopologyListener((previous, next) -> {
                if (next.primary() != null && InProcessCoordinator.STANDBY.equals(next.primary().name())) {
                    switchedNs.compareAndSet(0, System.nanoTime());
                }
            });
            AcknowledgingClient client = new AcknowledgingClient(dataSource, rate);
            try {
                Thread.sleep(warmup.toMillis());
                awaitAcks(client, primary.port(), 1, Duration.ofSeconds(30), "the primary");
                progress.accept("client acknowledged " + client.acknowledgedCount() + " transactions; SIGKILL to the primary's postmaster (pid "
                        + primary.pid() + ")");
                long killWallMs = System.currentTimeMillis();
                long killNs = System.nanoTime();
                ProcessHandle postmaster = ProcessHandle.of(primary.pid())
                        .orElseThrow(() -> new IllegalStateException("the primary's postmaster (pid " + primary.pid() + ") is not running"));
                List<Path> leftovers = sharedMemoryOf(primary.pid());
                postmaster.destroyForcibly();
                coordinator.awaitPhase("PROMOTED", PROMOTED_TIMEOUT);
                Map<String, Object> promoted = coordinator.awaitLastFailover(Duration.ofSeconds(5));
                progress.accept("coordinator: PROMOTED " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killNs)
                        + " ms after the kill; client writes on");
                awaitAcks(client, replica.port(), 1, NEW_PRIMARY_WRITES_TIMEOUT, "the new primary");
                Thread.sleep(after.toMillis());
                client.close();
                deleteQuietly(leftovers);
                return outcome(client, promoted, killNs, killWallMs, switchedNs.get());
            } finally {
                client.close();
            }
        }
    }

    private FailoverOutcome outcome(AcknowledgingClient client, Map<String, Object> promoted, long killNs, long killWallMs,
                                    long switchedNs) throws SQLException {
        @SuppressWarnings("unchecked")
        Map<String, Object> report = (Map<String, Object>) promoted.get("last_failover");
        Set<Long> onNew = ids(replica);
        Set<Long> byOld = client.acknowledgedBy(primary.port());
        Set<Long> byNew = client.acknowledgedBy(replica.port());
        Set<Long> lost = new HashSet<>(byOld);
        lost.removeAll(onNew);
        Set<Long> missing = new HashSet<>(byNew);
        missing.removeAll(onNew);
        long firstOnNew = client.firstAckNs(replica.port(), killNs);
        int writable = WritablePrimaries.count(primary, replica);
        return new FailoverOutcome(
                true,
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
                client.acknowledgedCount() - byOld.size() - byNew.size(),
                client.failures(),
                writable,
                report == null ? null : String.valueOf(report.get("message")),
                history(killWallMs),
                transitionsBeforeKill(killWallMs),
                Set.copyOf(lost),
                Set.copyOf(byOld));
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

    /** Every transition after the cluster was initialised, with its time relative to the kill (negative: before it). */
    private List<Map<String, Object>> history(long killWallMs) {
        List<Map<String, Object>> entries = new ArrayList<>();
        for (HistoryEntry entry : coordinator.history()) {
            if (!"uninitialised".equals(entry.from())) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("after_kill_ms", entry.atMs() - killWallMs);
                e.put("to", entry.to());
                e.put("reason", entry.reason());
                entries.add(e);
            }
        }
        return entries;
    }

    /** Transitions the coordinator made before the kill: a failover of a healthy primary. */
    private int transitionsBeforeKill(long killWallMs) {
        return (int) coordinator.history().stream().filter(e -> !"uninitialised".equals(e.from()) && e.atMs() < killWallMs).count();
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

    private static void awaitAcks(AcknowledgingClient client, int port, int count, Duration timeout, String server)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (client.countBy(port) < count) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the client had no write acknowledged by " + server + " within " + timeout.toSeconds()
                        + " s (" + client.failures() + " failed transactions; last: " + client.lastFailure() + ")");
            }
            Thread.sleep(1);
        }
    }

    /**
     * The POSIX shared memory segments ({@code /dev/shm/PostgreSQL.*}) a postmaster maps. A postmaster killed with
     * SIGKILL cannot remove them, and its data directory (whose next start would) is deleted, so the trial does.
     */
    private static List<Path> sharedMemoryOf(long pid) {
        List<Path> segments = new ArrayList<>();
        try (Stream<String> maps = Files.lines(Path.of("/proc", Long.toString(pid), "maps"))) {
            maps.map(line -> line.substring(line.lastIndexOf(' ') + 1))
                    .filter(file -> file.startsWith("/dev/shm/PostgreSQL."))
                    .distinct()
                    .forEach(file -> segments.add(Path.of(file)));
        } catch (IOException | UncheckedIOException | IndexOutOfBoundsException e) {
            // not Linux, or the process is gone: nothing to clean
        }
        return segments;
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

    /** Every id in {@link AcknowledgingClient#TABLE} on {@code server}. */
    public static Set<Long> ids(PostgresServer server) throws SQLException {
        Set<Long> ids = new HashSet<>();
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id FROM " + AcknowledgingClient.TABLE)) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }
}
