package io.rdmarepl.coordinator.machine;

import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.config.MemberConfig;
import io.rdmarepl.coordinator.detect.FailureDetector;
import io.rdmarepl.coordinator.detect.ProbingFailureDetector;
import io.rdmarepl.coordinator.detect.StandbyMonitor;
import io.rdmarepl.coordinator.detect.StandbyWatch;
import io.rdmarepl.coordinator.fence.MemberSql;
import io.rdmarepl.coordinator.fence.SqlFencer;
import io.rdmarepl.coordinator.handover.SqlCatchUpMarker;
import io.rdmarepl.coordinator.roles.HttpRoleClient;
import io.rdmarepl.coordinator.roles.RoleClient;
import io.rdmarepl.coordinator.roles.ShipperLease;
import io.rdmarepl.coordinator.store.StateStore;
import java.util.LinkedHashMap;
import java.util.Map;

/** The collaborators of a running coordinator: HTTP to the roles, SQL to the members, the system clock. */
public final class ProductionCollaborators {
    private ProductionCollaborators() {
    }

    /**
     * Starts the threads that watch the primary, the standbys and the lease.
     *
     * @throws IllegalArgumentException when the store is empty and {@code initial.primary} is not set, or the stored
     *                                  primary is not a configured member
     */
    public static Collaborators of(CoordinatorConfig config, StateStore store) {
        MemberConfig firstPrimary = FirstPrimary.of(config, store.read().value(), store.describe());
        RoleClient roles = new HttpRoleClient(config.rolesAdminToken());
        Wakeup wakeup = new Wakeup();
        FailureDetector detector = new ProbingFailureDetector(firstPrimary.jdbcUrl(), config.databaseUser(),
                config.databasePassword(), roles, config.detectInterval(), config.detectProbeTimeout(),
                config.detectProbeFailures(), config.detectHeartbeat(), config.fenceLease(), wakeup);
        Map<String, StandbyMonitor> standbys = new LinkedHashMap<>();
        for (MemberConfig member : config.members()) {
            member.applierAdmin().ifPresent(uri -> standbys.put(member.name(),
                    new StandbyWatch(member.name(), uri, roles, config.detectInterval(), config.detectHeartbeat())));
        }
        return new Collaborators(SystemClock.INSTANCE, roles, new SqlFencer(config, roles), detector, standbys,
                new ShipperLease(roles, store::holdsLeadership), new SqlCatchUpMarker(new MemberSql(config)), wakeup);
    }
}
