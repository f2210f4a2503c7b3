package io.rdmarepl.coordinator.machine;

import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.config.MemberConfig;
import io.rdmarepl.coordinator.detect.FailureDetector;
import io.rdmarepl.coordinator.detect.StandbyView;
import io.rdmarepl.coordinator.detect.Verdict;
import io.rdmarepl.coordinator.fence.FenceException;
import io.rdmarepl.coordinator.fence.Fencer;
import io.rdmarepl.coordinator.roles.RoleClient;
import io.rdmarepl.coordinator.roles.RoleException;
import io.rdmarepl.coordinator.roles.ShipperLease;
import io.rdmarepl.coordinator.roles.ShipperPromise;
import io.rdmarepl.coordinator.state.ClusterState;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An unplanned failover, start to end, on the coordinator's thread: choose the standby, fence the old primary
 * (FENCING; without trying SQL when its shipper saw its postmaster exit), drain the standby's ring (DRAINING), refuse a sync promise the standby cannot keep, bump the epoch
 * (PROMOTING, the one durable write on the way), promote the applier (PROMOTED). A step that fails puts the
 * cluster back in SUSPECT with the reason and refuses; the report says how long each step took.
 */
final class Failover {
    static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(60);
    private static final Logger LOG = LoggerFactory.getLogger(Failover.class);

    private final Coordinator coordinator;
    private final CoordinatorConfig config;
    private final Fencer fencer;
    private final RoleClient roles;
    private final StandbyTargets targets;
    private final ShipperLease lease;
    private final FailureDetector detector;

    Failover(Coordinator coordinator, CoordinatorConfig config, Fencer fencer, RoleClient roles, StandbyTargets targets,
             ShipperLease lease, FailureDetector detector) {
        this.coordinator = coordinator;
        this.config = config;
        this.fencer = fencer;
        this.roles = roles;
        this.targets = targets;
        this.lease = lease;
        this.detector = detector;
    }

    /**
     * Fails over to {@code to} (or the best candidate); without {@code force}, only when {@code verdict} says the
     * primary failed or the cluster is SUSPECT already.
     *
     * @return the failover report ({@code /status} {@code last_failover}, set before PROMOTED is written)
     * @throws Refused with the reason, the cluster back in SUSPECT when it got as far as fencing
     */
    Map<String, Object> run(String to, boolean force, String reason, Verdict verdict) {
        long decidedNs = System.nanoTime();
        long failedForMs = verdict.primaryFailed() ? verdict.failedForMs() : 0;
        ClusterState state = coordinator.state();
        MemberConfig oldPrimary = config.member(state.primary()).orElseThrow();
        StandbyView target = targets.choose(state, to, force);
        if (!force && !verdict.primaryFailed() && Phase.valueOf(state.phase()) != Phase.SUSPECT) {
            throw new Refused("primary " + state.primary() + " has not failed (" + verdict.sentence()
                    + "): use `rdmarepl failover --force` to fail over anyway");
        }
        MemberConfig chosen = config.member(target.name()).orElseThrow();
        String walLsn = detector.probeView().walLsn();
        ShipperPromise promise = ShipperPromise.of(lease.lastAnswer());
        lease.target(null);
        coordinator.transition(Phase.FENCING, reason + ": failing over to " + chosen.name());
        long fenceStartNs = System.nanoTime();
        String fenced;
        // only when the primary failed: an operator's forced failover of an answering primary is fenced in SQL
        String exit = verdict.primaryFailed() ? detector.postmasterExit() : null;
        try {
            fenced = exit != null ? fencer.fenceExited(oldPrimary, exit) : fencer.fence(oldPrimary);
        } catch (FenceException e) {
            coordinator.transition(Phase.SUSPECT, e.getMessage());
            throw new Refused(e.getMessage());
        }
        long fenceMs = elapsedMs(fenceStartNs);
        coordinator.transition(Phase.DRAINING, fenced);
        URI applier = chosen.applierAdmin().orElseThrow();
        String appliedLsn;
        long drainStartNs = System.nanoTime();
        try {
            appliedLsn = roles.post(applier, "/drain", "", DRAIN_TIMEOUT).path("applied_lsn").asText();
        } catch (RoleException e) {
            coordinator.transition(Phase.SUSPECT, "draining " + chosen.name() + " failed: " + e.getMessage());
            throw new Refused("draining " + chosen.name() + " failed: " + e.getMessage());
        }
        String shortfall = promise.shortfall(chosen.name(), appliedLsn);
        if (shortfall != null && !force) {
            coordinator.transition(Phase.SUSPECT, "not promoting: " + shortfall);
            throw new Refused(shortfall + "; bring back the primary or a standby that holds them, or `rdmarepl failover --to "
                    + chosen.name() + " --force` to accept the loss");
        }
        ClusterState promoting = coordinator.state().promote(chosen.name(), Phase.PROMOTING.name(), "epoch " + (state.epoch() + 1)
                + ": promoting " + chosen.name() + " (drained, applied up to " + appliedLsn + ")", System.currentTimeMillis());
        long drainMs = elapsedMs(drainStartNs);
        long epochStartNs = System.nanoTime();
        coordinator.write(promoting);
        long epochMs = elapsedMs(epochStartNs);
        long promoteStartNs = System.nanoTime();
        coordinator.promoteApplier(chosen, promoting.epoch());
        long applierPromoteMs = elapsedMs(promoteStartNs);
        long promotionMs = elapsedMs(decidedNs);
        String kept = promise.sentence(chosen.name(), appliedLsn, walLsn);
        String summary = chosen.name() + " promoted at epoch " + promoting.epoch() + " in " + promotionMs + " ms; " + fenced
                + "; " + kept;
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("result", "promoted");
        report.put("new_primary", chosen.name());
        report.put("epoch", promoting.epoch());
        report.put("detection_ms", failedForMs);
        report.put("promotion_ms", promotionMs);
        report.put("steps_ms", Map.of("fence", fenceMs, "drain", drainMs, "epoch_write", epochMs, "applier_promote", applierPromoteMs));
        report.put("applied_lsn", appliedLsn);
        report.put("old_primary_wal_lsn", walLsn);
        report.put("replication_mode", promise.mode());
        report.put("acknowledged_lsn", promise.acknowledgedLsn());
        report.put("kept", kept);
        report.put("fenced", fenced);
        report.put("message", summary);
        // published before PROMOTED is: whoever sees the phase finds the report beside it
        coordinator.failoverReported(report);
        coordinator.transition(Phase.PROMOTED, summary);
        detector.probe(chosen.jdbcUrl());
        LOG.warn("failover: {}", summary);
        return report;
    }

    private static long elapsedMs(long startNs) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
    }
}
