package io.rdmarepl.coordinator.machine;

import io.rdmarepl.control.ApplierRoutes;
import io.rdmarepl.control.ControlJson;
import io.rdmarepl.control.DrainAnswer;
import io.rdmarepl.control.LeaseAnswer;
import io.rdmarepl.control.LeaseTerms;
import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.config.MemberConfig;
import io.rdmarepl.coordinator.detect.FailureDetector;
import io.rdmarepl.coordinator.detect.StandbyView;
import io.rdmarepl.coordinator.detect.Verdict;
import io.rdmarepl.coordinator.fence.FenceException;
import io.rdmarepl.coordinator.fence.Fenced;
import io.rdmarepl.coordinator.fence.Fencer;
import io.rdmarepl.coordinator.fence.LeaseWait;
import io.rdmarepl.coordinator.roles.RoleClient;
import io.rdmarepl.coordinator.roles.RoleException;
import io.rdmarepl.coordinator.roles.ShipperLease;
import io.rdmarepl.coordinator.roles.ShipperPromise;
import io.rdmarepl.coordinator.state.ClusterState;
import io.rdmarepl.coordinator.state.Phase;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An unplanned failover, start to end, on the coordinator's thread: choose the standby, fence the old primary
 * (FENCING; without trying SQL when its shipper saw its postmaster exit), drain the standby's ring (DRAINING), refuse a
 * sync promise the standby cannot keep, wait until the old primary's lease has certainly run out when nothing confirmed
 * the fence ({@link LeaseWait}), bump the epoch (PROMOTING, the one durable write on the way), promote the applier
 * (PROMOTED). A step that fails puts the cluster back in SUSPECT with the reason and refuses; a fence it made is lifted
 * before the cluster is HEALTHY again ({@link FenceLift}). The report says how long each step took.
 *
 * <p>The rule: a standby takes writes only once the old primary certainly refuses them. Renewals of its lease stop
 * here: this coordinator's at FENCING, the standbys' from their drain on (each applier holds its feedback heartbeat).
 */
final class Failover {
    static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(60);
    private static final Logger LOG = LoggerFactory.getLogger(Failover.class);

    private final CurrentState cluster;
    private final CoordinatorConfig config;
    private final Fencer fencer;
    private final RoleClient roles;
    private final StandbyTargets targets;
    private final ShipperLease lease;
    private final FailureDetector detector;
    private final ApplierPromoter promoter;
    private final CoordinatorClock clock;
    private final Consumer<Map<String, Object>> reports;
    private final Consumer<String> fencing;

    /**
     * @param reports receives each failover's report before its PROMOTED is written (for {@code /status})
     * @param fencing told the old primary's name as its fence begins: a refusal from then on leaves it fenced
     */
    Failover(CurrentState cluster, CoordinatorConfig config, Fencer fencer, RoleClient roles, StandbyTargets targets,
             ShipperLease lease, FailureDetector detector, ApplierPromoter promoter, CoordinatorClock clock,
             Consumer<Map<String, Object>> reports, Consumer<String> fencing) {
        this.cluster = cluster;
        this.config = config;
        this.fencer = fencer;
        this.roles = roles;
        this.targets = targets;
        this.lease = lease;
        this.detector = detector;
        this.promoter = promoter;
        this.clock = clock;
        this.reports = reports;
        this.fencing = fencing;
    }

    /**
     * Fails over to {@code to} (or the best candidate); without {@code force}, only when {@code verdict} says the
     * primary failed or the cluster is SUSPECT already.
     *
     * @return the failover report ({@code /status} {@code last_failover}, set before PROMOTED is written)
     * @throws Refused with the reason, the cluster back in SUSPECT when it got as far as fencing
     */
    Map<String, Object> run(String to, boolean force, String reason, Verdict verdict) {
        long decidedNs = clock.nanoTime();
        long failedForMs = verdict.primaryFailed() ? verdict.failedForMs() : 0;
        ClusterState state = cluster.value();
        MemberConfig oldPrimary = config.member(state.primary()).orElseThrow();
        StandbyView target = targets.choose(state, to, force);
        if (!force && !verdict.primaryFailed() && state.phase() != Phase.SUSPECT) {
            throw new Refused("primary " + state.primary() + " has not failed (" + verdict.sentence()
                    + "): use `rdmarepl failover --force` to fail over anyway");
        }
        MemberConfig chosen = config.member(target.name()).orElseThrow();
        String walLsn = detector.probeView().walLsn();
        LeaseAnswer leaseAnswer = lease.lastAnswer();
        ShipperPromise promise = ShipperPromise.of(leaseAnswer);
        lease.target(null);
        cluster.transition(Phase.FENCING, reason + ": failing over to " + chosen.name());
        fencing.accept(oldPrimary.name());
        long fenceStartNs = clock.nanoTime();
        Fenced fenced;
        // only when the primary failed: an operator's forced failover of an answering primary is fenced in SQL
        String exit = verdict.primaryFailed() ? detector.postmasterExit() : null;
        try {
            fenced = exit != null ? fencer.fenceExited(oldPrimary, exit) : fencer.fence(oldPrimary);
            if (!fenced.confirmed() && verdict.primaryFailed() && (exit = detector.awaitPostmasterExit()) != null) {
                // its port refused the SQL fence before its shipper's word of the exit arrived: that word confirms it
                fenced = fencer.fenceExited(oldPrimary, exit);
            }
        } catch (FenceException e) {
            cluster.transition(Phase.SUSPECT, e.getMessage());
            throw new Refused(e.getMessage());
        }
        long fenceMs = elapsedMs(fenceStartNs);
        cluster.transition(Phase.DRAINING, fenced.sentence());
        // the verdict is taken and the fence stands: probing the old primary or asking its shipper again until the new
        // primary is named would only spend the standby host's CPU inside the clients' outage
        detector.hold();
        try {
            URI applier = chosen.applierAdmin().orElseThrow();
            String appliedLsn;
            long drainStartNs = clock.nanoTime();
            try {
                appliedLsn = ControlJson.read(roles.post(applier, ApplierRoutes.DRAIN, "", DRAIN_TIMEOUT), DrainAnswer.class)
                        .appliedLsn();
                // from the answer on, the chosen standby renews the old primary's lease no more
            } catch (RoleException e) {
                cluster.transition(Phase.SUSPECT, "draining " + chosen.name() + " failed: " + e.getMessage());
                throw new Refused("draining " + chosen.name() + " failed: " + e.getMessage());
            }
            String shortfall = promise.shortfall(chosen.name(), appliedLsn);
            if (shortfall != null && !force) {
                cluster.transition(Phase.SUSPECT, "not promoting: " + shortfall);
                throw new Refused(shortfall + "; bring back the primary or a standby that holds them, or `rdmarepl failover --to "
                        + chosen.name() + " --force` to accept the loss");
            }
            long leaseWaitStartNs = clock.nanoTime();
            long leaseWaitMs = fenced.confirmed() ? 0
                    : awaitLeaseRunOut(state, oldPrimary, chosen, leaseAnswer == null ? null : leaseAnswer.terms(), leaseWaitStartNs,
                    force);
            ClusterState promoting = cluster.value().promote(chosen.name(), Phase.PROMOTING, "epoch " + (state.epoch() + 1)
                    + ": promoting " + chosen.name() + " (drained, applied up to " + appliedLsn + ")", clock.nowMs());
            long drainMs = TimeUnit.NANOSECONDS.toMillis(leaseWaitStartNs - drainStartNs);
            long epochStartNs = clock.nanoTime();
            cluster.write(promoting);
            long epochMs = elapsedMs(epochStartNs);
            long promoteStartNs = clock.nanoTime();
            promoter.promote(chosen, promoting.epoch());
            long applierPromoteMs = elapsedMs(promoteStartNs);
            long promotionMs = elapsedMs(decidedNs);
            String kept = promise.sentence(chosen.name(), appliedLsn, walLsn);
            String summary = chosen.name() + " promoted at epoch " + promoting.epoch() + " in " + promotionMs + " ms; "
                    + fenced.sentence()
                    + (fenced.confirmed() ? "" : "; waited " + leaseWaitMs + " ms for its lease to run out") + "; " + kept;
            Map<String, Object> report = new LinkedHashMap<>();
            report.put("result", "promoted");
            report.put("new_primary", chosen.name());
            report.put("epoch", promoting.epoch());
            report.put("detection_ms", failedForMs);
            report.put("promotion_ms", promotionMs);
            report.put("steps_ms", Map.of("fence", fenceMs, "drain", drainMs, "lease_wait", leaseWaitMs, "epoch_write", epochMs,
                    "applier_promote", applierPromoteMs));
            report.put("applied_lsn", appliedLsn);
            report.put("old_primary_wal_lsn", walLsn);
            report.put("replication_mode", promise.mode());
            report.put("acknowledged_lsn", promise.acknowledgedLsn());
            report.put("kept", kept);
            report.put("fenced", fenced.sentence());
            report.put("fence_confirmed", fenced.confirmed());
            report.put("lease_wait_ms", leaseWaitMs);
            report.put("message", summary);
            // published before PROMOTED is: whoever sees the phase finds the report beside it
            reports.accept(report);
            cluster.transition(Phase.PROMOTED, summary);
            detector.probe(chosen.jdbcUrl());
            LOG.warn("failover: {}", summary);
            return report;
        } finally {
            detector.resume();
        }
    }

    /**
     * The old primary's fence is not confirmed: every other standby of it is told to stop renewing its lease too
     * ({@code POST /drain}), then this waits until the lease has certainly run out.
     *
     * @param terms     the old primary's lease, as its shipper last answered; null when it did not since this coordinator leads
     * @param drainedNs when the chosen standby's drain answered
     * @return how long it waited, in ms
     * @throws Refused when the lease cannot be counted on (none, or a standby that may still renew it is unreachable)
     */
    private long awaitLeaseRunOut(ClusterState state, MemberConfig oldPrimary, MemberConfig chosen, LeaseTerms terms, long drainedNs,
                                  boolean force) {
        long standbysStoppedNs = drainedNs;
        for (StandbyView other : targets.views(state)) {
            if (other.name().equals(chosen.name())) {
                continue;
            }
            try {
                roles.post(config.member(other.name()).orElseThrow().applierAdmin().orElseThrow(), ApplierRoutes.DRAIN, "", DRAIN_TIMEOUT);
                standbysStoppedNs = clock.nanoTime();
            } catch (RoleException e) {
                String why = other.name() + " may still renew " + oldPrimary.name() + "'s lease: its applier did not take the drain ("
                        + e.getMessage() + ")";
                if (!force) {
                    cluster.transition(Phase.SUSPECT, "not promoting: " + why);
                    throw new Refused(why + "; not promoting over an unconfirmed fence: set fence.command, or make sure "
                            + oldPrimary.name() + " takes no writes and `rdmarepl failover --force`");
                }
                LOG.warn("{}; promoting anyway: the operator forced it", why);
            }
        }
        LeaseWait wait;
        try {
            wait = LeaseWait.of(oldPrimary.name(), terms, config.fenceLease().toMillis(),
                    Math.max(lease.lastRenewalNs(), standbysStoppedNs), force);
        } catch (FenceException e) {
            cluster.transition(Phase.SUSPECT, "not promoting: " + e.getMessage());
            throw new Refused(e.getMessage());
        }
        cluster.transition(Phase.DRAINING, wait.sentence());
        LOG.warn("{}", wait.sentence());
        long startNs = clock.nanoTime();
        for (long leftNs = wait.deadlineNs() - startNs; leftNs > 0; leftNs = wait.deadlineNs() - clock.nanoTime()) {
            clock.parkNanos(leftNs);
            if (Thread.currentThread().isInterrupted()) {
                throw new Refused("the coordinator stopped while waiting for " + oldPrimary.name() + "'s lease to run out");
            }
        }
        return elapsedMs(startNs);
    }

    private long elapsedMs(long startNs) {
        return TimeUnit.NANOSECONDS.toMillis(clock.nanoTime() - startNs);
    }
}
