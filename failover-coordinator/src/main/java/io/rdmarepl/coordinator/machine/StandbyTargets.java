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
            StandbyView view = views.stream().filter(v -> v.name().equals(to)).findFirst()
                    .orElseThrow(() -> new Refused(to + " has no applier admin endpoint configured (member." + to + ".applier.admin)"));
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
