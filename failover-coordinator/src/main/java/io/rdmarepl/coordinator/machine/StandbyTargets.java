package io.rdmarepl.coordinator.machine;

import io.rdmarepl.coordinator.detect.Candidates;
import io.rdmarepl.coordinator.detect.StandbyView;
import io.rdmarepl.coordinator.detect.StandbyMonitor;
import io.rdmarepl.coordinator.state.ClusterState;
import io.rdmarepl.coordinator.state.Member;
import io.rdmarepl.coordinator.state.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The standbys as their appliers last reported them, and which one a failover promotes. */
final class StandbyTargets {
    /** How long a failover that names its standby waits for that applier's answer when the watch lost it. */
    private static final java.time.Duration NAMED_TARGET_READ = java.time.Duration.ofSeconds(2);
    private final Map<String, StandbyMonitor> watches;
    private final Candidates candidates;

    StandbyTargets(Map<String, StandbyMonitor> watches, Candidates candidates) {
        this.watches = watches;
        this.candidates = candidates;
    }

    /** Every member the state calls a standby and whose applier is watched. */
    List<StandbyView> views(ClusterState state) {
        List<StandbyView> views = new ArrayList<>();
        for (Member member : state.withRole(Role.STANDBY)) {
            StandbyMonitor watch = watches.get(member.name());
            if (watch != null) {
                views.add(watch.view());
            }
        }
        return views;
    }

    /**
     * {@code to} when it qualifies ({@code force} accepts a lagging one, never an unreachable one), else the best.
     *
     * @throws Refused saying why no standby (or not {@code to}) can be promoted
     */
    StandbyView choose(ClusterState state, String to, boolean force) {
        List<StandbyView> views = views(state);
        if (to != null) {
            Member member = state.member(to).orElseThrow(() -> new Refused("no member named " + to));
            if (member.role() != Role.STANDBY) {
                throw new Refused(to + " is " + member.role() + ", not a standby");
            }
            StandbyMonitor watch = watches.get(to);
            if (watch == null) {
                throw new Refused(to + " has no applier admin endpoint configured (member." + to + ".applier.admin)");
            }
            // the watch gives up on an applier after a few short reads (detection must not wait); an operator who
            // names the standby gets one more read that waits longer for a slow (busy, just started) applier
            StandbyView view = watch.freshView(NAMED_TARGET_READ);
            Optional<String> why = candidates.disqualification(view);
            if (why.isPresent() && !(force && view.reachable())) {
                throw new Refused("cannot promote " + why.get());
            }
            return view;
        }
        return candidates.best(views).orElseThrow(() -> new Refused("no standby can be promoted: "
                + (views.isEmpty() ? "none configured" : String.join("; ", views.stream()
                .map(v -> candidates.disqualification(v).orElse(v.name() + " qualifies")).toList()))));
    }
}
