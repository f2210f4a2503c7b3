package io.rdmarepl.harness.bench.lag;

import io.rdmarepl.harness.bench.PhysicalStandby;
import io.rdmarepl.harness.bench.cpu.CpuAccount;
import io.rdmarepl.testsupport.PostgresServer;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The rounds: every system once per round, the order rotating from round to round (A B, B A, A B...) so
 * that drift of the host hits all alike. For each system: fresh tables on both sides, the system started,
 * probe and load for the warm-up and then the measured window, the load stopped, the catch-up awaited,
 * the probes read back, the system stopped and cleaned up. In {@code --mode sync} the bench database's sessions
 * run with {@code synchronous_commit} remote_apply (or on) for every system, so the asynchronous ones commit as the
 * synchronous ones would without a standby listed; only the system whose turn it is is listed in
 * {@code synchronous_standby_names}, and it is cleared after it.
 */
final class LagBenchRun {
    /** The primary's database the benchmark creates and replicates. */
    static final String BENCH_DATABASE = "rdmarepl_lag";
    private static final long CATCH_UP_TIMEOUT_S = 300;

    private final LagBenchSettings settings;
    private final Endpoint primary;
    private final Endpoint replica;
    private final PostgresServer primaryServer;
    private final Progress progress;
    private final List<Map<String, Object>> notRun = new ArrayList<>();

    /** @param primaryServer the embedded primary, null when attached (then no physical standby can be built) */
    LagBenchRun(LagBenchSettings settings, Endpoint primary, Endpoint replica, PostgresServer primaryServer, Progress progress) {
        this.settings = settings;
        this.primary = primary;
        this.replica = replica;
        this.primaryServer = primaryServer;
        this.progress = progress;
    }

    /**
     * Lag mode: rdmarepl over each transport asked for, then PostgreSQL's own. Sync mode: rdmarepl async and sync over
     * each transport, PostgreSQL's synchronous logical replication, and its physical synchronous standby when the
     * servers are embedded (else it is listed in {@link #notRun()}).
     */
    List<ReplicationSystem> systems() {
        List<ReplicationSystem> systems = new ArrayList<>();
        if (!settings.syncMode()) {
            for (String transport : settings.transports()) {
                systems.add(new RdmareplSystem(transport, primary, BENCH_DATABASE, replica, settings));
            }
            systems.add(new NativeLogicalSystem(primary, BENCH_DATABASE, replica, settings.nativeSync()));
            return systems;
        }
        for (String transport : settings.transports()) {
            systems.add(new RdmareplSystem(transport, primary, BENCH_DATABASE, replica, settings, false));
            systems.add(new RdmareplSystem(transport, primary, BENCH_DATABASE, replica, settings, true));
        }
        systems.add(new NativeLogicalSystem(primary, BENCH_DATABASE, replica, settings.nativeSync(), true));
        Optional<String> physical = primaryServer == null
                ? Optional.of("attached servers: the physical standby is built from the embedded primary's binaries and data directory")
                : PhysicalStandby.unavailable(primaryServer);
        if (physical.isEmpty()) {
            systems.add(new NativePhysicalSystem(primaryServer, primary, BENCH_DATABASE));
        } else {
            Map<String, Object> skipped = new LinkedHashMap<>();
            skipped.put("system", "postgresql physical sync");
            skipped.put("reason", physical.get());
            notRun.add(skipped);
        }
        return systems;
    }

    /** Systems the mode asks for that could not run here, and why. */
    List<Map<String, Object>> notRun() {
        return notRun;
    }

    /**
     * Creates the bench database on the primary (removing what an interrupted earlier run left, a
     * synchronous_standby_names listing one of the benchmark's standbys included).
     *
     * @throws IllegalStateException in sync mode, when synchronous_standby_names lists standbys of someone else
     */
    void prepare(List<ReplicationSystem> systems) {
        String listed = SynchronousStandbys.current(primary);
        if (!listed.isEmpty() && SynchronousStandbys.oursOrEmpty(listed)) {
            progress.say("synchronous_standby_names '" + listed + "' left by an interrupted run: cleared");
            SynchronousStandbys.clear(primary);
        } else if (!listed.isEmpty() && settings.syncMode()) {
            throw new IllegalStateException("synchronous_standby_names is '" + listed + "' on " + primary + ": --mode sync lists the"
                    + " standby whose turn it is there itself; clear it (ALTER SYSTEM RESET synchronous_standby_names) or use other servers");
        }
        dropTargets(systems);
        Slots.drop(primary, RdmareplSystem.SLOT, Duration.ofSeconds(30));
        Slots.drop(primary, NativeLogicalSystem.NAME, Duration.ofSeconds(30));
        primary.execute("postgres", "DROP DATABASE IF EXISTS " + BENCH_DATABASE + " WITH (FORCE)");
        primary.execute("postgres", "CREATE DATABASE " + BENCH_DATABASE);
        if (settings.syncMode()) {
            // new sessions of the bench database wait for a listed standby; the shipper checks this before it lists itself
            primary.execute("postgres", "ALTER DATABASE " + BENCH_DATABASE + " SET synchronous_commit = " + settings.clientSynchronousCommit());
        }
    }

    /** After a failed run: clears synchronous_standby_names if it still lists one of the benchmark's standbys. */
    void releaseCommits() {
        try {
            String listed = SynchronousStandbys.current(primary);
            if (!listed.isEmpty() && SynchronousStandbys.oursOrEmpty(listed)) {
                SynchronousStandbys.clear(primary);
            }
        } catch (RuntimeException e) {
            progress.say("could not clear synchronous_standby_names on " + primary + ": " + e.getMessage());
        }
    }

    /** Removes the databases the run created (attached servers; embedded ones are deleted whole). */
    void dropDatabases(List<ReplicationSystem> systems) {
        dropTargets(systems);
        primary.execute("postgres", "DROP DATABASE IF EXISTS " + BENCH_DATABASE + " WITH (FORCE)");
    }

    private void dropTargets(List<ReplicationSystem> systems) {
        for (ReplicationSystem system : systems) {
            if (system.targetDatabase() == null) {
                continue;
            }
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
        primary.execute(BENCH_DATABASE, Endpoint.NO_STANDBY_WAIT + BenchTables.primary());
        String target = system.targetDatabase();
        if (target != null) {
            replica.execute("postgres", "DROP DATABASE IF EXISTS " + target + " WITH (FORCE)");
            replica.execute("postgres", "CREATE DATABASE " + target);
            replica.execute(target, BenchTables.replica());
        }
        progress.phase("starting", system.label(), round, () -> 0);
        system.start(round);
        try {
            LagWorkload workload = new LagWorkload(primary, BENCH_DATABASE, settings);
            workload.start();
            progress.phase("warm-up", system.label(), round, workload::committed);
            runFor(settings.warmupSeconds(), system, workload);
            workload.measuring();
            system.measuring();
            String notSynchronous = system.synchronous() ? system.notSynchronous() : null;
            progress.phase("measuring", system.label(), round, workload::committed);
            CpuAccount cpuBefore = CpuAccount.now();
            runFor(settings.seconds(), system, workload);
            LagWorkload.Window window = workload.stop();
            // the path's CPU for what the primary committed meanwhile: the walsender, the apply worker or rdmarepl's
            // threads and replica sessions, this JVM's compilers and collector (which the load's clients use too)
            Map<String, Double> cpu = cpuBefore.perThousand(CpuAccount.now(), window.transactions(), target);
            long last = workload.finalProbe();
            progress.phase("catching up", system.label(), round, workload::committed);
            try (Connection c = system.connectProbes()) {
                awaitApplied(c, last, system);
                if (system.synchronous() && notSynchronous == null) {
                    notSynchronous = system.notSynchronous();
                }
                long expected = window.lastProbe() - window.firstProbe() + 1;
                if (!system.stampsApplied()) {
                    long held = ProbeTable.count(c, window.firstProbe(), window.lastProbe());
                    return new RoundResult(round, order, List.of(), expected - held, window, -1, null, notSynchronous, cpu);
                }
                List<ProbeSample> samples = ProbeTable.read(c, window.firstProbe(), window.lastProbe());
                List<ProbeSample> finalProbe = ProbeTable.read(c, last, last);
                RoundResult.ReturnPath returnPath = system.synchronous() ? RoundResult.returnPath(samples, window) : null;
                if (returnPath != null && system instanceof RdmareplSystem r && r.events() != null && settings.load().none()) {
                    // one transaction at a time: each probe's own moments in the ring and at the replica's commit
                    returnPath = returnPath.withLegs(CommitEvents.split(samples, window, r.events().events(CommitEvents.RING),
                            r.events().events(CommitEvents.REPLICA)));
                }
                return new RoundResult(round, order, samples, expected - samples.size(), window,
                        finalProbe.isEmpty() ? -1 : finalProbe.get(0).lagUs(), returnPath, notSynchronous, cpu);
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
