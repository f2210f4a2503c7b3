package io.rdmarepl.coordinator.machine;

import io.rdmarepl.coordinator.detect.FailureDetector;
import io.rdmarepl.coordinator.detect.StandbyMonitor;
import io.rdmarepl.coordinator.fence.Fencer;
import io.rdmarepl.coordinator.handover.CatchUpMarker;
import io.rdmarepl.coordinator.roles.RoleClient;
import io.rdmarepl.coordinator.roles.ShipperLease;
import java.util.Map;

/**
 * Everything the {@link Coordinator} acts through besides its state store, made outside it
 * ({@link ProductionCollaborators} for a running coordinator; fakes in its tests), so its decisions can be driven
 * and checked without servers, roles or waiting.
 *
 * @param standbys every member that has an applier, by name, as its applier reports it
 * @param wakeup   the detector's way to ask for a decision now; the coordinator binds its thread to it
 */
public record Collaborators(CoordinatorClock clock, RoleClient roles, Fencer fencer, FailureDetector detector,
                            Map<String, StandbyMonitor> standbys, ShipperLease lease, CatchUpMarker marker, Wakeup wakeup) {
    public Collaborators {
        standbys = Map.copyOf(standbys);
    }
}
