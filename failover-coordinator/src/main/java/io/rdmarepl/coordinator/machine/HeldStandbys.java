package io.rdmarepl.coordinator.machine;

import io.rdmarepl.control.ApplierRoutes;
import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.detect.StandbyView;
import io.rdmarepl.coordinator.roles.RoleClient;
import io.rdmarepl.coordinator.roles.RoleException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Standbys still draining while the cluster is HEALTHY: a failover drained them (so they stopped renewing the
 * primary's lease) and was then called off, or the coordinator restarted in the middle of one. Each is told to follow
 * the primary again ({@code POST /follow}), at most once a second: left draining, it would not renew the lease, and
 * the primary would fence itself the first time this coordinator is away for longer than the lease.
 */
final class HeldStandbys {
    private static final Logger LOG = LoggerFactory.getLogger(HeldStandbys.class);
    private static final long RETRY_NS = TimeUnit.SECONDS.toNanos(1);
    private static final Duration TIMEOUT = Duration.ofMillis(500);

    private final CoordinatorConfig config;
    private final RoleClient roles;
    private final CoordinatorClock clock;
    private final Map<String, Long> lastToldNs = new HashMap<>();

    HeldStandbys(CoordinatorConfig config, RoleClient roles, CoordinatorClock clock) {
        this.config = config;
        this.roles = roles;
        this.clock = clock;
    }

    /** On the coordinator's thread, in HEALTHY. */
    void release(List<StandbyView> standbys) {
        for (StandbyView standby : standbys) {
            if (!standby.reachable() || !"draining".equals(standby.state())) {
                continue;
            }
            Long last = lastToldNs.get(standby.name());
            if (last != null && clock.nanoTime() - last < RETRY_NS) {
                continue;
            }
            lastToldNs.put(standby.name(), clock.nanoTime());
            try {
                roles.post(config.member(standby.name()).orElseThrow().applierAdmin().orElseThrow(), ApplierRoutes.FOLLOW, "", TIMEOUT);
                LOG.info("{} was still draining from a failover that did not happen: told to follow the primary (and renew its lease) again",
                        standby.name());
            } catch (RoleException e) {
                LOG.warn("{} is still draining and did not take POST /follow: {}", standby.name(), e.getMessage());
            }
        }
    }
}
