package io.rdmarepl.coordinator.machine;

import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.config.MemberConfig;
import io.rdmarepl.coordinator.detect.FailureDetector;
import io.rdmarepl.coordinator.detect.StandbyMonitor;
import io.rdmarepl.coordinator.detect.StandbyView;
import io.rdmarepl.coordinator.fence.Fencer;
import io.rdmarepl.coordinator.handover.CatchUpMarker;
import io.rdmarepl.coordinator.handover.ReverseRoles;
import io.rdmarepl.coordinator.roles.RoleException;
import io.rdmarepl.coordinator.state.ClusterState;
import io.rdmarepl.coordinator.state.Member;
import io.rdmarepl.coordinator.state.Phase;
import io.rdmarepl.coordinator.state.Role;
import io.rdmarepl.format.Lsn;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The planned moves, run on the coordinator's thread: a switchover (hand the primary role to a standby with
 * nothing lost, then make the old primary follow) and a rejoin (make a fenced old primary a standby of the new
 * one, by a fresh copy through the reverse shipper and applier).
 */
final class Handovers {
    private static final Logger LOG = LoggerFactory.getLogger(Handovers.class);
    private static final Duration CATCH_UP_TIMEOUT = Duration.ofSeconds(30);
    /** Each read of the chosen standby's applied position while a switchover waits for its marker. */
    private static final Duration POSITION_READ_TIMEOUT = Duration.ofMillis(500);
    private static final long REJOIN_CHECK_NS = TimeUnit.MILLISECONDS.toNanos(100);
    /** How long a rejoin asks the old primary's shipper to retire while it does not answer (it may be starting). */
    private static final Duration RETIRE_WAIT = Duration.ofSeconds(10);
    private static final long RETIRE_RETRY_NS = TimeUnit.SECONDS.toNanos(1);

    private final CurrentState cluster;
    private final CoordinatorConfig config;
    private final Fencer fencer;
    private final CatchUpMarker marker;
    private final ReverseRoles reverse;
    private final Map<String, StandbyMonitor> watches;
    private final ApplierPromoter promoter;
    private final FailureDetector detector;
    private final CoordinatorClock clock;
    private long lastRejoinCheckNs;
    private long lastRetireNs;
    /** Members whose shipper did not answer the rejoin's retirement: asked again at every rejoin check. */
    private final java.util.Set<String> unretired = new java.util.HashSet<>();

    Handovers(CurrentState cluster, CoordinatorConfig config, Fencer fencer, CatchUpMarker marker, ReverseRoles reverse,
              Map<String, StandbyMonitor> watches, ApplierPromoter promoter, FailureDetector detector, CoordinatorClock clock) {
        this.cluster = cluster;
        this.config = config;
        this.fencer = fencer;
        this.marker = marker;
        this.reverse = reverse;
        this.watches = watches;
        this.promoter = promoter;
        this.detector = detector;
        this.clock = clock;
    }

    /**
     * Fence clients on the primary, wait until {@code to} applied a marker committed after the last client
     * commit, stop the old shipper, promote {@code to}, then start the old primary's rejoin.
     */
    Map<String, Object> switchover(String to, StandbyTargets targets) {
        long startNs = clock.nanoTime();
        ClusterState state = cluster.value();
        if (state.phase() != Phase.HEALTHY) {
            throw new Refused("a switchover needs a HEALTHY cluster; it is " + state.phase()
                    + " (see rdmarepl status: finish the failover or rejoin first)");
        }
        MemberConfig oldPrimary = member(state.primary());
        MemberConfig chosen = member(targets.choose(state, to, false).name());
        requireReverse(chosen, oldPrimary);
        cluster.transition(Phase.SWITCHOVER, "operator asked for a switchover from " + oldPrimary.name() + " to " + chosen.name());
        int ended;
        long markerLsn;
        try {
            ended = fencer.fenceClients(oldPrimary);
            markerLsn = marker.emit(oldPrimary, "switchover from " + oldPrimary.name() + " to " + chosen.name());
        } catch (SQLException e) {
            throw callOff(oldPrimary, oldPrimary.name() + " could not be fenced or marked (" + e.getMessage() + ")");
        }
        Optional<Duration> caughtUp = CatchUpMarker.awaitApplied(() -> watch(chosen).readNow(POSITION_READ_TIMEOUT), markerLsn, CATCH_UP_TIMEOUT);
        if (caughtUp.isEmpty()) {
            throw callOff(oldPrimary, chosen.name() + " did not apply the marker at " + Lsn.format(markerLsn) + " within "
                    + CATCH_UP_TIMEOUT.toSeconds() + " s (it is at " + watch(chosen).view().appliedLsn() + ")");
        }
        try {
            fencer.stopShipperNow(oldPrimary);
        } catch (RoleException e) {
            throw callOff(oldPrimary, oldPrimary.name() + "'s shipper did not stop (" + e.getMessage() + ")");
        }
        ClusterState promoting = cluster.value().promote(chosen.name(), Phase.PROMOTING, "epoch " + (state.epoch() + 1)
                + ": promoting " + chosen.name() + " (applied the marker at " + Lsn.format(markerLsn) + ": nothing lost)",
                clock.nowMs());
        cluster.write(promoting);
        promoter.promote(chosen, promoting.epoch());
        long promotedMs = TimeUnit.NANOSECONDS.toMillis(clock.nanoTime() - startNs);
        String summary = "switched over from " + oldPrimary.name() + " to " + chosen.name() + " at epoch " + promoting.epoch()
                + " in " + promotedMs + " ms; " + ended + " client session(s) ended on " + oldPrimary.name() + "; "
                + chosen.name() + " applied everything up to the marker at " + Lsn.format(markerLsn) + " in "
                + caughtUp.get().toMillis() + " ms: nothing lost";
        cluster.transition(Phase.PROMOTED, summary);
        detector.probe(chosen.jdbcUrl());
        LOG.warn("switchover: {}", summary);
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("result", "switched");
        report.put("new_primary", chosen.name());
        report.put("old_primary", oldPrimary.name());
        report.put("epoch", promoting.epoch());
        report.put("marker_lsn", Lsn.format(markerLsn));
        report.put("catch_up_ms", caughtUp.get().toMillis());
        report.put("promotion_ms", promotedMs);
        report.put("message", summary);
        try {
            report.put("rejoin", rejoin(oldPrimary.name()));
        } catch (RuntimeException e) {
            report.put("rejoin", Map.of("result", "refused", "message", String.valueOf(e.getMessage())));
        }
        return report;
    }

    /**
     * Makes the fenced {@code name} a standby of the current primary: its own shipper retires (asked for up to
     * {@link #RETIRE_WAIT}, then again at every rejoin check), its applier follows, a fresh copy feeds it. When the
     * primary's shipper cannot start, the applier's activation is taken back and the member stays fenced.
     */
    Map<String, Object> rejoin(String name) {
        ClusterState state = cluster.value();
        Member member = state.member(name).orElseThrow(() -> new Refused("no member named " + name));
        if (member.role() != Role.FENCED) {
            throw new Refused(name + " is " + member.role() + ": only a fenced former primary rejoins");
        }
        Phase phase = state.phase();
        if (phase != Phase.PROMOTED && phase != Phase.HEALTHY) {
            throw new Refused("the cluster is " + phase + ": a rejoin waits until a primary takes writes and no other rejoin runs");
        }
        MemberConfig primary = member(state.primary());
        MemberConfig follower = member(name);
        requireReverse(primary, follower);
        cluster.write(state.withMemberRole(name, Role.REJOINING, name + " rejoins as a standby of " + primary.name(),
                clock.nowMs()));
        ReverseRoles.Retirement retired = reverse.retireShipper(follower, RETIRE_WAIT);
        if (retired.done()) {
            unretired.remove(name);
        } else {
            unretired.add(name);
        }
        try {
            reverse.follow(primary, follower, state.epoch());
        } catch (RoleException e) {
            cluster.write(cluster.value().withMemberRole(name, Role.FENCED, name + " could not rejoin: " + e.getMessage(),
                    clock.nowMs()));
            throw new Refused(name + " could not rejoin: " + e.getMessage() + " (it stays fenced; fix it and run rdmarepl rejoin "
                    + name + " again)");
        }
        String message = name + " rejoining as a standby of " + primary.name() + ": " + retired.message() + "; its applier follows "
                + primary.name() + "'s shipper, which copies every published table from a fresh slot";
        cluster.transition(Phase.REJOINING, message);
        return Map.of("result", "rejoining", "member", name, "primary", primary.name(), "message", message);
    }

    /** In REJOINING, every 100 ms: once the copy is applied, the member is a standby and the cluster HEALTHY. */
    void checkRejoin(ClusterState state) {
        if (clock.nanoTime() - lastRejoinCheckNs < REJOIN_CHECK_NS) {
            return;
        }
        lastRejoinCheckNs = clock.nanoTime();
        for (Member member : state.withRole(Role.REJOINING)) {
            if (unretired.contains(member.name()) && lastRejoinCheckNs - lastRetireNs >= RETIRE_RETRY_NS) {
                lastRetireNs = lastRejoinCheckNs;
                ReverseRoles.Retirement retired = reverse.retireShipper(member(member.name()), Duration.ZERO);
                if (retired.done()) {
                    unretired.remove(member.name());
                    LOG.info("rejoin of {}: {}", member.name(), retired.message());
                }
            }
            StandbyView follower = watch(member(member.name())).view();
            String done = reverse.copied(member(state.primary()), follower, Duration.ofSeconds(1));
            if (done != null) {
                done += unfence(member(member.name()));
                cluster.write(cluster.value().withMemberRole(member.name(), Role.STANDBY, done, clock.nowMs()));
                cluster.transition(Phase.HEALTHY, member.name() + " rejoined: " + done);
            }
        }
    }

    /**
     * Lifts the server-wide read-only of the fence only now that the member is a standby whose applier keeps it
     * read-only for clients: lifted earlier, the fenced-member guard could take it for a fenced primary that
     * came back writable. Left on, the member would stay read-only when it is promoted one day.
     */
    private String unfence(MemberConfig member) {
        try {
            fencer.unfence(member);
            return "";
        } catch (SQLException e) {
            return "; its server-wide read-only could not be lifted (" + e.getMessage() + "): run ALTER SYSTEM RESET "
                    + "default_transaction_read_only on it before it is ever promoted";
        }
    }

    /**
     * A coordinator restarted in SWITCHOVER: nothing was promoted (that writes PROMOTING first), so the old
     * primary stays primary and takes writes again.
     */
    void interrupted(ClusterState state) {
        callOff(member(state.primary()), "it was interrupted (coordinator restart) before the promotion");
    }

    /** Lifts the client fence again and returns to HEALTHY: the old primary takes writes, nothing was promoted. */
    private Refused callOff(MemberConfig oldPrimary, String why) {
        String lifted;
        try {
            fencer.unfence(oldPrimary);
            lifted = oldPrimary.name() + " takes writes again";
        } catch (SQLException e) {
            lifted = oldPrimary.name() + " stays read-only (" + e.getMessage() + "): lift it with ALTER SYSTEM RESET "
                    + "default_transaction_read_only once it answers";
        }
        cluster.transition(Phase.HEALTHY, "switchover called off: " + why + "; " + lifted);
        return new Refused("switchover called off: " + why + "; " + lifted);
    }

    private void requireReverse(MemberConfig primary, MemberConfig follower) {
        try {
            ReverseRoles.requireConfigured(primary, follower);
        } catch (IllegalStateException e) {
            throw new Refused(e.getMessage());
        }
    }

    private StandbyMonitor watch(MemberConfig member) {
        StandbyMonitor watch = watches.get(member.name());
        if (watch == null) {
            throw new Refused(member.name() + " has no applier admin endpoint (member." + member.name() + ".applier.admin)");
        }
        return watch;
    }

    private MemberConfig member(String name) {
        return config.member(name).orElseThrow(() -> new Refused("no member named " + name + " in the configuration"));
    }
}
