package io.rdmarepl.cli.bench.lag;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The rounds: every system once per round, the order rotating from round to round (A B, B A, A B...) so
 * that drift of the host hits all alike. For each system: fresh tables on both sides, the system started,
 * probe and load for the warm-up and then the measured window, the load stopped, the catch-up awaited,
 * the probes read back, the system stopped and cleaned up.
 */
final class LagBenchRun {
    /** The primary's database the benchmark creates and replicates. */
    static final String BENCH_DATABASE = "rdmarepl_lag";
    private static final long CATCH_UP_TIMEOUT_S = 300;

    private final LagBenchSettings settings;
    private final Endpoint primary;
    private final Endpoint replica;
    private final Progress progress;

    LagBenchRun(LagBenchSettings settings, Endpoint primary, Endpoint replica, Progress progress) {
        this.settings = settings;
        this.primary = primary;
        this.replica = replica;
        this.progress = progress;
    }

    /** rdmarepl over each transport asked for, then PostgreSQL's own. */
    List<ReplicationSystem> systems() {
        List<ReplicationSystem> systems = new ArrayList<>();
        for (String transport : settings.transports()) {
            systems.add(new RdmareplSystem(transport, primary, BENCH_DATABASE, replica, settings));
        }
        systems.add(new NativeLogicalSystem(primary, BENCH_DATABASE, replica, settings.nativeSync()));
        return systems;
    }

    /** Creates the bench database on the primary (removing what an interrupted earlier run left). */
    void prepare(List<ReplicationSystem> systems) {
        dropTargets(systems);
        Slots.drop(primary, RdmareplSystem.SLOT, Duration.ofSeconds(30));
        Slots.drop(primary, NativeLogicalSystem.NAME, Duration.ofSeconds(30));
        primary.execute("postgres", "DROP DATABASE IF EXISTS " + BENCH_DATABASE + " WITH (FORCE)");
        primary.execute("postgres", "CREATE DATABASE " + BENCH_DATABASE);
    }

    /** Removes the databases the run created (attached servers; embedded ones are deleted whole). */
    void dropDatabases(List<ReplicationSystem> systems) {
        dropTargets(systems);
        primary.execute("postgres", "DROP DATABASE IF EXISTS " + BENCH_DATABASE + " WITH (FORCE)");
    }

    private void dropTargets(List<ReplicationSystem> systems) {
        for (ReplicationSystem system : systems) {
            String exists = replica.query("postgres", "SELECT 1 FROM pg_database WHERE datname = '" + system.targetDatabase() + "'");
            if (exists != null && system instanceof NativeLogicalSystem) {
                // a subscription keeps its database from being dropped
                replica.execute(system.targetDatabase(), "DROP SUBSCRIPTION IF EXISTS " + NativeLogicalSystem.NAME);
            }
            replica.execute("postgres", "DROP DATABASE IF EXISTS " + system.targetDatabase() + " WITH (FORCE)");
        }
    }

    List<SystemResult> run(List<ReplicationSystem> systems) throws Exception {
        List<SystemResult> results = new ArrayList<>();
        systems.forEach(s -> results.add(new SystemResult(s)));
        for (int round = 1; round <= settings.rounds(); round++) {
            for (int k = 0; k < systems.size(); k++) {
                int index = (k + round - 1) % systems.size();
                results.get(index).add(once(systems.get(index), round, k + 1));
            }
        }
        return results;
    }

    private RoundResult once(ReplicationSystem system, int round, int order) throws Exception {
        progress.phase("fresh tables", system.label(), round, () -> 0);
        primary.execute(BENCH_DATABASE, BenchTables.primary());
        String target = system.targetDatabase();
        replica.execute("postgres", "DROP DATABASE IF EXISTS " + target + " WITH (FORCE)");
        replica.execute("postgres", "CREATE DATABASE " + target);
        replica.execute(target, BenchTables.replica());
        progress.phase("starting", system.label(), round, () -> 0);
        system.start(round);
        try {
            LagWorkload workload = new LagWorkload(primary, BENCH_DATABASE, settings);
            workload.start();
            progress.phase("warm-up", system.label(), round, workload::committed);
            runFor(settings.warmupSeconds(), system, workload);
            workload.measuring();
            system.measuring();
            progress.phase("measuring", system.label(), round, workload::committed);
            runFor(settings.seconds(), system, workload);
            LagWorkload.Window window = workload.stop();
            long last = workload.finalProbe();
            progress.phase("catching up", system.label(), round, workload::committed);
            try (Connection c = replica.connect(target)) {
                awaitApplied(c, last, system);
                List<ProbeSample> samples = ProbeTable.read(c, window.firstProbe(), window.lastProbe());
                List<ProbeSample> finalProbe = ProbeTable.read(c, last, last);
                long expected = window.lastProbe() - window.firstProbe() + 1;
                return new RoundResult(round, order, samples, expected - samples.size(), window,
                        finalProbe.isEmpty() ? -1 : finalProbe.get(0).lagUs());
            }
        } finally {
            progress.phase("stopping", system.label(), round, () -> 0);
            system.stop();
        }
    }

    /** Lets the workload run for {@code seconds}, watching for a failure of either side. */
    private static void runFor(int seconds, ReplicationSystem system, LagWorkload workload) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() - end < 0) {
            if (workload.failure() != null) {
                workload.stop(); // throws the failure
            }
            String failure = system.failure();
            if (failure != null) {
                workload.stop();
                throw new IllegalStateException(system.label() + " stopped: " + failure);
            }
            LockSupport.parkNanos(Math.min(TimeUnit.MILLISECONDS.toNanos(100), Math.max(0, end - System.nanoTime())));
        }
    }

    private static void awaitApplied(Connection replica, long id, ReplicationSystem system) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CATCH_UP_TIMEOUT_S);
        while (!ProbeTable.applied(replica, id)) {
            String failure = system.failure();
            if (failure != null) {
                throw new IllegalStateException(system.label() + " stopped before catching up: " + failure);
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(system.label() + ": the replica did not catch up within " + CATCH_UP_TIMEOUT_S
                        + " s (probe " + id + " missing); " + system.describe());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }
}
