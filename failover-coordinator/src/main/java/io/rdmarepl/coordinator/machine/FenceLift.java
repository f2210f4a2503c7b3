package io.rdmarepl.coordinator.machine;

import io.rdmarepl.control.ControlJson;
import io.rdmarepl.control.PrimaryAnswer;
import io.rdmarepl.control.ResumeAnswer;
import io.rdmarepl.control.ShipperRoutes;
import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.config.MemberConfig;
import io.rdmarepl.coordinator.fence.Fencer;
import io.rdmarepl.coordinator.roles.RoleClient;
import io.rdmarepl.coordinator.roles.RoleException;
import io.rdmarepl.coordinator.state.ClusterState;
import io.rdmarepl.coordinator.state.Role;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * What a SUSPECT cluster needs before it is HEALTHY again: a primary that takes writes and ships. A failover refused
 * after its fence step (a standby that would not drain, a sync promise it could not keep, a lease it could not count
 * on), or cut short by a coordinator restart, left the primary read-only and its shipper fenced. Nothing was
 * promoted: the epoch is the primary's still, and this coordinator leads, so lifting both is safe. Left alone, the
 * cluster would say HEALTHY over a primary that refuses every write and ships nothing.
 *
 * <p>The shipper's own word decides ({@code GET /primary}, its {@code fenced}): only a fenced shipper's primary has its
 * read-only default reset, so a primary an operator made read-only by hand, with its shipper shipping, is left as it
 * is; so is a member the operator fenced through the coordinator ({@code rdmarepl fence}). The read-only default goes
 * first: a shipper its lease guard fenced starts fenced again over a primary that still refuses writes.
 */
final class FenceLift {
    private static final Duration ASK_TIMEOUT = Duration.ofMillis(500);
    /**
     * A resumption closes the fenced shipper, waits for its slot to be let go of and connects to the standbys: 0.3 s in
     * FailoverIT, far longer when a standby is cut off. The coordinator's thread does not wait that out (it would detect
     * nothing meanwhile): the resumption goes on in the shipper, and the lift is tried again a second later, until the
     * shipper says it ships.
     */
    private static final Duration RESUME_TIMEOUT = Duration.ofSeconds(2);
    private static final long RETRY_NS = TimeUnit.SECONDS.toNanos(1);

    /** @param blocker why the cluster is not HEALTHY yet, or null; @param lifted what was lifted, or null */
    record Outcome(String blocker, String lifted) {
        static final Outcome NOTHING = new Outcome(null, null);

        boolean blocked() {
            return blocker != null;
        }
    }

    private final CoordinatorConfig config;
    private final Fencer fencer;
    private final RoleClient roles;
    private final CoordinatorClock clock;
    /** When the shipper was last asked directly, or 0. */
    private long lastCheckNs;
    private Outcome lastBlocked;

    FenceLift(CoordinatorConfig config, Fencer fencer, RoleClient roles, CoordinatorClock clock) {
        this.config = config;
        this.fencer = fencer;
        this.roles = roles;
        this.clock = clock;
    }

    /** On the coordinator's thread, in SUSPECT with a primary that answers; a blocked lift is tried again after a second. */
    Outcome beforeHealthy(ClusterState now) {
        MemberConfig primary = config.member(now.primary()).orElseThrow();
        boolean operatorFenced = now.member(primary.name()).map(m -> m.role() == Role.FENCED).orElse(false);
        if (primary.shipperAdmin().isEmpty() || operatorFenced) {
            return Outcome.NOTHING;
        }
        if (lastBlocked != null && clock.nanoTime() - lastCheckNs < RETRY_NS) {
            return lastBlocked;
        }
        lastCheckNs = clock.nanoTime();
        Outcome outcome = lift(primary);
        lastBlocked = outcome.blocked() ? outcome : null;
        return outcome;
    }

    /**
     * The shipper was asked directly within the last second: the detector's word of a fence may predate that answer
     * (its long poll, held up to half a second, was answered before the lift), and is not acted on again so soon.
     */
    boolean checkedRecently() {
        return lastCheckNs != 0 && clock.nanoTime() - lastCheckNs < RETRY_NS;
    }

    private Outcome lift(MemberConfig primary) {
        String name = primary.name();
        PrimaryAnswer answer;
        try {
            answer = ControlJson.read(roles.get(primary.shipperAdmin().get(), ShipperRoutes.PRIMARY, ASK_TIMEOUT), PrimaryAnswer.class);
        } catch (RoleException | IllegalArgumentException e) {
            return new Outcome(name + "'s shipper does not say whether it ships (" + e.getMessage() + ")", null);
        }
        if (!answer.reportsFenced()) {
            return Outcome.NOTHING;
        }
        try {
            fencer.unfence(primary);
        } catch (SQLException e) {
            return new Outcome(name + "'s shipper is fenced and " + name + " stays read-only: lifting its read-only default failed ("
                    + e.getMessage() + ")", null);
        }
        try {
            ResumeAnswer resumed = ControlJson.read(roles.post(primary.shipperAdmin().get(), ShipperRoutes.RESUME, "", RESUME_TIMEOUT),
                    ResumeAnswer.class);
            if (!"shipping".equals(resumed.state())) {
                return new Outcome(name + " takes writes again but its shipper did not resume (it is " + resumed.state() + ")", null);
            }
        } catch (RoleException | IllegalArgumentException e) {
            return new Outcome(name + " takes writes again but its shipper did not resume (" + e.getMessage() + ")", null);
        }
        return new Outcome(null, name + " was fenced and nothing was promoted: it takes writes again and its shipper ships");
    }
}
