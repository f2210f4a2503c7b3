package io.rdmarepl.harness.bench.lag.catchup;

import io.rdmarepl.harness.bench.cpu.CpuAccount;
import io.rdmarepl.harness.bench.lag.Endpoint;
import io.rdmarepl.harness.bench.lag.Slots;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The rounds. Each round: fresh pgbench tables on the primary and in every system's replica database; every system
 * attached and paused (its slot kept, nothing consuming it); both servers checkpointed; the TPC-B clients flat out for
 * {@code --catch-up} seconds, then one marker transaction; the backlog noted (transactions, WAL) and the primary checked
 * against the clients' count. Then each system alone, the others still paused: both servers checkpointed, the system
 * resumed and timed until its replica database holds the marker (commit order is kept, so it holds every transaction
 * before it), the system detached, its replica compared with the primary row by row ({@link ReplicaCheck}). The order rotates from round
 * to round (A B, B A, ...), so every system meets the same backlog and the host's drift hits all alike.
 */
final class CatchUpRun {
    /** The primary's database the benchmark creates and replicates. */
    static final String BENCH_DATABASE = "rdmarepl_catchup";
    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(5);
    static final int WARM_UP_SECONDS = 15;

    /** Everything measured: per system and round, per round's backlog. */
    record Result(List<CatchUpRound> rounds, List<Backlog> backlogs) {
    }

    private final CatchUpSettings settings;
    private final Endpoint primary;
    private final Endpoint replica;
    private final Consumer<String> say;
    private final List<Map<String, Object>> notRun = new ArrayList<>();

    CatchUpRun(CatchUpSettings settings, Endpoint primary, Endpoint replica, Consumer<String> say) {
        this.settings = settings;
        this.primary = primary;
        this.replica = replica;
        this.say = say;
    }

    /** rdmarepl per transport and {@code apply.workers} value that can run here, then PostgreSQL's own. */
    List<CatchUpSystem> systems(boolean workersKnown) {
        List<CatchUpSystem> systems = new ArrayList<>();
        for (String transport : settings.transports()) {
            for (int workers : settings.options().applyWorkers()) {
                RdmareplCatchUp system = new RdmareplCatchUp(transport, workers, workersKnown, primary, BENCH_DATABASE, replica, settings);
                String reason = ApplyWorkers.unavailable(workers, workersKnown);
                if (reason == null) {
                    systems.add(system);
                } else {
                    Map<String, Object> skipped = new LinkedHashMap<>();
                    skipped.put("system", system.label());
                    skipped.put("reason", reason);
                    notRun.add(skipped);
                }
            }
        }
        systems.add(new NativeCatchUp(primary, BENCH_DATABASE, replica, settings.nativeSync()));
        return systems;
    }

    /** Systems asked for that cannot run here ({@code system}, {@code reason}). */
    List<Map<String, Object>> notRun() {
        return notRun;
    }

    /** Removes what an interrupted earlier run left (subscriptions, slots, databases), then creates the bench database. */
    void prepare(List<CatchUpSystem> systems) {
        dropTargets(systems);
        for (CatchUpSystem system : systems) {
            Slots.drop(primary, system.targetDatabase(), Duration.ofSeconds(30));
        }
        primary.execute("postgres", "DROP DATABASE IF EXISTS " + BENCH_DATABASE + " WITH (FORCE)");
        primary.execute("postgres", "CREATE DATABASE " + BENCH_DATABASE);
    }

    /** Drops every database the run created, on both servers. */
    void dropDatabases(List<CatchUpSystem> systems) {
        dropTargets(systems);
        primary.execute("postgres", "DROP DATABASE IF EXISTS " + BENCH_DATABASE + " WITH (FORCE)");
    }

    private void dropTargets(List<CatchUpSystem> systems) {
        for (CatchUpSystem system : systems) {
            String target = system.targetDatabase();
            if (replica.query("postgres", "SELECT 1 FROM pg_database WHERE datname = '" + target + "'") != null
                    && system instanceof NativeCatchUp) {
                replica.execute(target, "DROP SUBSCRIPTION IF EXISTS " + NativeCatchUp.NAME); // it keeps its database from being dropped
            }
            replica.execute("postgres", "DROP DATABASE IF EXISTS " + target + " WITH (FORCE)");
        }
    }

    Result run(List<CatchUpSystem> systems) throws Exception {
        List<CatchUpRound> rounds = new ArrayList<>();
        List<Backlog> backlogs = new ArrayList<>();
        warmUp(systems);
        for (int round = 1; round <= settings.rounds(); round++) {
            List<CatchUpSystem> order = new ArrayList<>();
            for (int k = 0; k < systems.size(); k++) {
                order.add(systems.get((k + round - 1) % systems.size()));
            }
            Throwable failed = null;
            try {
                Backlog backlog = backlog(order, round);
                backlogs.add(backlog);
                for (int k = 0; k < order.size(); k++) {
                    rounds.add(catchUp(order.get(k), backlog, k + 1));
                }
            } catch (Exception | Error e) {
                failed = e;
                throw e;
            } finally {
                detachAll(order, failed);
            }
        }
        return new Result(rounds, backlogs);
    }

    /**
     * Round 0, not counted: a {@value #WARM_UP_SECONDS} s backlog through every system, so that the measured rounds find
     * rdmarepl's code compiled, as it is in a sidecar that has been running (the first catch-up of a fresh JVM
     * measured twice the CPU a transaction in the capture thread and the walsender it reads from).
     */
    private void warmUp(List<CatchUpSystem> systems) throws Exception {
        Throwable failed = null;
        try {
            Backlog backlog = backlog(systems, 0, Math.min(WARM_UP_SECONDS, settings.options().seconds()));
            for (int k = 0; k < systems.size(); k++) {
                catchUp(systems.get(k), backlog, k + 1);
            }
        } catch (Exception | Error e) {
            failed = e;
            throw e;
        } finally {
            detachAll(systems, failed);
        }
    }

    private Backlog backlog(List<CatchUpSystem> order, int round) throws Exception {
        return backlog(order, round, settings.options().seconds());
    }

    /** Fresh tables, every system attached and paused, the load, the marker: the backlog of {@code round}. */
    private Backlog backlog(List<CatchUpSystem> order, int round, int seconds) throws Exception {
        int scale = settings.options().scale();
        say(round, "fresh pgbench tables at scale " + scale + " on the primary and in " + order.size() + " replica databases");
        TpcbTables.create(primary, BENCH_DATABASE, scale);
        for (CatchUpSystem system : order) {
            replica.execute("postgres", "DROP DATABASE IF EXISTS " + system.targetDatabase() + " WITH (FORCE)");
            replica.execute("postgres", "CREATE DATABASE " + system.targetDatabase());
            TpcbTables.create(replica, system.targetDatabase(), scale);
        }
        for (CatchUpSystem system : order) {
            say(round, system.label() + ": attaching, then pausing");
            system.attach(round);
            system.pause();
        }
        checkpoint();
        String startLsn = primary.query(BENCH_DATABASE, "SELECT pg_current_wal_lsn()::text");
        say(round, String.format(Locale.ROOT, "every system paused; %d clients running pgbench's %s flat out for %d s",
                settings.clients(), settings.options().script(), seconds));
        TpcbLoad.Result load = new TpcbLoad(primary, BENCH_DATABASE, settings.clients(), scale,
                settings.options().script().equals(CatchUpOptions.SIMPLE_UPDATE)).run(seconds);
        primary.execute(BENCH_DATABASE, TpcbTables.marker(round));
        String endLsn = primary.query(BENCH_DATABASE, "SELECT pg_current_wal_lsn()::text");
        long walBytes = Long.parseLong(primary.query(BENCH_DATABASE, "SELECT pg_wal_lsn_diff('" + endLsn + "', '" + startLsn + "')::bigint"));
        TableFigures figures = TableFigures.read(primary, BENCH_DATABASE);
        Backlog backlog = new Backlog(round, load, startLsn, endLsn, walBytes, figures, figures.inconsistencies(load.transactions(), 1,
                settings.options().script().equals(CatchUpOptions.SIMPLE_UPDATE)));
        say(round, String.format(Locale.ROOT, "backlog %,d transactions (%,.0f tx/s on the primary, %d retried), %.1f MB of WAL (%s .. %s)%s",
                load.transactions(), load.transactionsPerSecond(), load.retries(), walBytes / 1048576.0, startLsn, endLsn,
                backlog.inconsistencies().isEmpty() ? "" : "; PRIMARY INCONSISTENT: " + String.join("; ", backlog.inconsistencies())));
        return backlog;
    }

    /** {@code system} alone: resumed, timed until its replica holds the marker, compared with the primary, detached. */
    private CatchUpRound catchUp(CatchUpSystem system, Backlog backlog, int order) throws Exception {
        int round = backlog.round();
        checkpoint();
        say(round, system.label() + ": catching up");
        long timeoutS = 120 + 30L * settings.options().seconds();
        double seconds;
        Map<String, Object> details;
        try (Connection c = replica.connect(system.targetDatabase()); PreparedStatement marker = c.prepareStatement(TpcbTables.markerQuery())) {
            marker.setInt(1, round);
            CpuAccount cpuBefore = CpuAccount.now();
            long startNs = System.nanoTime();
            system.resume();
            while (!holds(marker)) {
                String failure = system.failure();
                if (failure != null) {
                    throw new IllegalStateException(system.label() + " stopped before catching up: " + failure);
                }
                if (System.nanoTime() - startNs > TimeUnit.SECONDS.toNanos(timeoutS)) {
                    throw new IllegalStateException(system.label() + ": the replica did not catch up within " + timeoutS + " s; "
                            + system.describe());
                }
                LockSupport.parkNanos(POLL_NS);
            }
            seconds = (System.nanoTime() - startNs) / 1e9;
            Map<String, Double> cpu = cpuBefore.perThousand(CpuAccount.now(), backlog.transactions(), system.targetDatabase());
            details = new java.util.LinkedHashMap<>(system.details());
            details.put("cpu_ms_per_1000_tx", cpu);
            say(round, system.label() + ": " + CpuAccount.describe("CPU ms per 1,000 transactions:", cpu));
        }
        system.detach();
        ReplicaCheck check = ReplicaCheck.between(primary, BENCH_DATABASE, replica, system.targetDatabase());
        CatchUpRound result = new CatchUpRound(system.label(), round, order, backlog.transactions(), backlog.walBytes(), seconds,
                check, details);
        say(round, String.format(Locale.ROOT, "%s: caught up in %.2f s, %,.0f tx/s; %s", system.label(), seconds,
                result.transactionsPerSecond(), check.describe()));
        return result;
    }

    private static boolean holds(PreparedStatement marker) throws SQLException {
        try (ResultSet rs = marker.executeQuery()) {
            return rs.next();
        }
    }

    private void checkpoint() {
        primary.execute("postgres", "CHECKPOINT");
        replica.execute("postgres", "CHECKPOINT");
    }

    /**
     * Detaches every system, the others too when one fails; a failure is added to {@code failed} (the round's own), or
     * else thrown.
     */
    private static void detachAll(List<CatchUpSystem> systems, Throwable failed) {
        RuntimeException first = null;
        for (CatchUpSystem system : systems) {
            try {
                system.detach();
            } catch (RuntimeException e) {
                if (failed != null) {
                    failed.addSuppressed(e);
                } else if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private void say(int round, String message) {
        say.accept(round == 0 ? "warm-up round (not counted), " + message
                : String.format(Locale.ROOT, "round %d/%d, %s", round, settings.rounds(), message));
    }
}
