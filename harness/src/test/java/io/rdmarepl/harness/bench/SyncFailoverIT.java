package io.rdmarepl.harness.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmarepl.channel.shm.ShmPaths;
import io.rdmarepl.harness.rig.FailoverOutcome;
import io.rdmarepl.harness.rig.FailoverTrial;
import io.rdmarepl.harness.rig.InProcessCoordinator;
import io.rdmarepl.harness.rig.ReplicationRoles;
import io.rdmarepl.harness.rig.WritablePrimaries;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresPair;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.history.ClientWriter;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sync mode's promise under unplanned failover (issue #8), 20 times: each trial on a fresh pair of servers (fsync on),
 * the shipper in strict sync mode (the client starts once sync is on), the applier, the coordinator in this process,
 * a client of {@value #WRITERS} writer threads writing through the failover-aware DataSource as fast as sync commits
 * return, SIGKILL of the primary's postmaster, the coordinator failing over. Every transaction whose commit returned
 * to the client from the old primary (the client's log of acknowledged ids) must be on the promoted replica, the
 * replica must be the member promoted (coordinator and applier agree), and exactly one server may take writes.
 * <p>
 * The rig of {@code rdmarepl bench failover --mode sync}; unlike the benchmark, the next trial's servers start, and
 * the last trial's stop, while a trial runs (this test judges what is kept, not how fast), and detection waits out
 * stalls of up to a second: 20 trials take about 2 minutes on 2 vCPUs.
 */
class SyncFailoverIT {
    private static final int TRIALS = 20;
    private static final int WRITERS = 4;
    private static final Duration WARMUP = Duration.ofMillis(500);
    private static final Duration WRITE_ON = Duration.ofMillis(100);
    private static final String ROLES_TOKEN = UUID.randomUUID().toString();
    /**
     * Detection that outlasts the rig's own stalls: the next pair's initdb and the last pair's shutdown fsync while a
     * trial runs, and on 2 vCPUs that once stalled a healthy primary's probe for 464 ms and the heartbeats for 858 ms,
     * a failover before the kill with the defaults (20 ms, 25 ms). A killed primary refuses connections at once, so
     * detection then takes about the heartbeat threshold. The lease must outlast such detection plus a renewal (the
     * coordinator's loader refuses less); a killed postmaster is a confirmed fence, so no trial waits for it.
     */
    private static final Map<String, String> STALL_TOLERANT_DETECTION = Map.of(
            "detect.heartbeat.ms", "1000",
            "detect.probe.timeout.ms", "1000",
            "fence.lease.ms", "3000");

    /** What one trial came to, with what the test read itself from the servers before they stopped. */
    private record Trial(FailoverOutcome outcome, Set<Long> acknowledgedAbsentOnReplica, String coordinatorPhase, String coordinatorPrimary,
                         String applierState, boolean oldPrimaryWritable, boolean replicaWritable) {
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void syncModeLosesNoAcknowledgedTransactionInTwentyUnplannedFailovers() throws Exception {
        long startNs = System.nanoTime();
        StringBuilder lines = new StringBuilder();
        long acknowledged = 0;
        long inFlight = 0;
        CompletableFuture<PostgresPair> next = startPair();
        CompletableFuture<Void> closing = CompletableFuture.completedFuture(null);
        try {
            for (int i = 1; i <= TRIALS; i++) {
                PostgresPair pair = next.join();
                next = i < TRIALS ? startPair() : null;
                Trial trial;
                try {
                    trial = trial(i, pair);
                } finally {
                    closing.join(); // one pair stopping at a time
                    closing = inBackground(pair::close);
                }
                FailoverOutcome o = trial.outcome();
                String line = String.format("trial %2d: %3d acknowledged by the old primary (%d in its last 100 ms, %d in flight at the kill), "
                                + "lost %d; transaction median %s µs; RTO %d ms; at the kill %s", i, o.acknowledgedByOld(), o.acknowledgedLast100MsBeforeKill(),
                        o.inFlightAtKill(), o.lostAcknowledged(), o.commitLatencyUs().get("median"), o.rtoMs(), o.syncAtKill());
                lines.append(line).append('\n');
                String which = "trial " + i + ": " + o.toMap();

                assertThat(o.sync()).as(which).isTrue();
                assertThat(o.syncAtKill().get("sync_state")).as("the shipper was in sync at the kill; %s", which).isEqualTo("sync");
                assertThat(o.syncAtKill().get("primary_sync_state")).as("the primary's pg_stat_replication said sync at the kill; %s", which)
                        .isEqualTo("sync");
                assertThat(o.transitionsBeforeKill()).as("failed over before the kill; %s", which).isZero();
                assertThat(o.acknowledgedByOld()).as("writes acknowledged by the old primary; %s", which).isPositive();
                assertThat(o.inFlightAtKill() + o.acknowledgedLast100MsBeforeKill())
                        .as("the kill hit the write load (in flight or just acknowledged); %s", which).isPositive();
                // the client's log of acknowledged ids against the promoted replica: what the rig says, and what the test read
                assertThat(trial.acknowledgedAbsentOnReplica()).as("acknowledged by the old primary, absent on the promoted replica; %s", which)
                        .isEmpty();
                assertThat(o.lostAcknowledged()).as("%s", which).isZero();
                assertThat(o.missingOnNew()).as(which).isZero();
                assertThat(o.unaccounted()).as(which).isZero();
                // the replica promoted, and only it takes writes
                assertThat(trial.coordinatorPhase()).as(which).isEqualTo("PROMOTED");
                assertThat(trial.coordinatorPrimary()).as(which).isEqualTo(InProcessCoordinator.STANDBY);
                assertThat(o.newPrimary()).as(which).isEqualTo(InProcessCoordinator.STANDBY);
                assertThat(trial.applierState()).as("the replica's applier; %s", which).isEqualTo("promoted");
                assertThat(o.acknowledgedByNew()).as("the client wrote on to the new primary; %s", which).isPositive();
                assertThat(trial.replicaWritable()).as("the promoted replica takes writes; %s", which).isTrue();
                assertThat(trial.oldPrimaryWritable()).as("the killed primary takes none; %s", which).isFalse();
                assertThat(o.writablePrimariesAfter()).as("exactly one writable primary; %s", which).isEqualTo(1);
                assertThat(o.pass()).as(which).isTrue();
                acknowledged += o.acknowledgedByOld();
                inFlight += o.inFlightAtKill();
            }
        } finally {
            if (next != null) {
                next.thenAccept(PostgresPair::close);
            }
            closing.join();
            System.out.printf("%d sync-mode failover trials in %d s:%n%s", TRIALS, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNs), lines);
        }
        System.out.printf("%d transactions acknowledged by the old primaries, %d in flight at the kills, none lost%n", acknowledged, inFlight);
        assertThat(inFlight).as("commits waiting for the replica when the primary died").isPositive();
    }

    private static Trial trial(int index, PostgresPair pair) throws Exception {
        PostgresServer primary = pair.primary();
        PostgresServer replica = pair.replica();
        primary.execute(ClientWriter.SCHEMA);
        replica.execute(ClientWriter.SCHEMA);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (ReplicationRoles roles = ReplicationRoles.start("syncit", primary, replica,
                ShmPaths.ring("rdmarepl-sync-failover-it-" + ProcessHandle.current().pid() + "-" + index), ROLES_TOKEN, registry, true, "on");
             InProcessCoordinator coordinator = InProcessCoordinator.start("sync-failover-it", primary, replica, roles, ROLES_TOKEN,
                     registry, null, STALL_TOLERANT_DETECTION)) {
            FailoverOutcome outcome = new FailoverTrial(primary, replica, coordinator, message -> { }, roles.syncWitness(primary))
                    .run(0, WRITERS, WARMUP, WRITE_ON);
            Set<Long> absent = new HashSet<>(outcome.acknowledgedByOldIds());
            absent.removeAll(FailoverTrial.ids(replica));
            Map<String, Object> status = coordinator.status();
            return new Trial(outcome, absent, String.valueOf(status.get("phase")), String.valueOf(status.get("primary")),
                    String.valueOf(roles.applier().statusDocument().get("state")), WritablePrimaries.acceptsWrite(primary),
                    WritablePrimaries.acceptsWrite(replica));
        }
    }

    private static CompletableFuture<PostgresPair> startPair() {
        return CompletableFuture.supplyAsync(() -> PostgresPair.start(Durability.DURABLE), SyncFailoverIT::daemon);
    }

    private static CompletableFuture<Void> inBackground(Runnable task) {
        return CompletableFuture.runAsync(task, SyncFailoverIT::daemon);
    }

    private static void daemon(Runnable task) {
        Thread thread = new Thread(task, "sync-failover-it-servers");
        thread.setDaemon(true);
        thread.start();
    }
}
