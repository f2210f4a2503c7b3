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
    private final Runnable claim;
    /** When the last lift attempt ended, or 0. */
    private long lastCheckNs;
    private Outcome lastBlocked;
    /**
     * The member whose fence this coordinator owes a lift: a failover it ran fenced it and was then refused or cut
     * short, or a lift began (its read-only default reset) and its shipper does not ship yet; null when none.
     */
    private String owed;

    /**
     * @param claim writes the cluster state again unchanged (a compare-and-set that bumps its version) and throws
     *              {@link Refused} when another coordinator wrote since: run before anything is lifted, so a coordinator
     *              that lost the lead in the middle of a failover cannot then promote over a primary lifted here
     */
    FenceLift(CoordinatorConfig config, Fencer fencer, RoleClient roles, CoordinatorClock clock, Runnable claim) {
        this.config = config;
        this.fencer = fencer;
        this.roles = roles;
        this.clock = clock;
        this.claim = claim;
    }

    /** A failover fenced {@code member} and was refused or cut short: HEALTHY waits until its fence is lifted. */
    void owe(String member) {
        owed = member;
    }

    /** On the coordinator's thread, in SUSPECT with a primary that answers; a blocked lift is tried again after a second. */
    Outcome beforeHealthy(ClusterState now) {
        MemberConfig primary = config.member(now.primary()).orElseThrow();
        boolean operatorFenced = now.member(primary.name()).map(m -> m.role() == Role.FENCED).orElse(false);
        if (primary.shipperAdmin().isEmpty() || operatorFenced) {
            owed = null;
            return Outcome.NOTHING;
        }
        if (lastBlocked != null && clock.nanoTime() - lastCheckNs < RETRY_NS) {
            return lastBlocked;
        }
        try {
            Outcome outcome = lift(primary);
            lastBlocked = outcome.blocked() ? outcome : null;
            return outcome;
        } finally {
            lastCheckNs = clock.nanoTime();
        }
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
        boolean owedHere = name.equals(owed);
        PrimaryAnswer answer;
        try {
            answer = ControlJson.read(roles.get(primary.shipperAdmin().get(), ShipperRoutes.PRIMARY, ASK_TIMEOUT), PrimaryAnswer.class);
        } catch (RoleException | IllegalArgumentException e) {
            // nothing known of a fence: only one this coordinator made keeps the cluster from HEALTHY
            return owedHere ? new Outcome(name + " was fenced by a failover that did not happen, and its shipper does not say"
                    + " whether it ships (" + e.getMessage() + ")", null) : Outcome.NOTHING;
        }
        if (!answer.reportsFenced() && !owedHere) {
            return Outcome.NOTHING;
        }
        claim.run();
        owed = name;
        try {
            fencer.unfence(primary);
        } catch (SQLException e) {
            return new Outcome(name + " stays read-only: lifting its read-only default failed (" + e.getMessage() + ")", null);
        }
        String shipping = answer.reportsFenced() ? resume(primary) : answer.shipping() ? null
                : name + " takes writes again but its shipper does not ship (no shipper runs there)";
        if (shipping != null) {
            return new Outcome(shipping, null);
        }
        owed = null;
        return new Outcome(null, name + " was fenced and nothing was promoted: it takes writes again and its shipper ships");
    }

    /** @return null once the shipper ships again, else why not */
    private String resume(MemberConfig primary) {
        String name = primary.name();
        try {
            ResumeAnswer resumed = ControlJson.read(roles.post(primary.shipperAdmin().get(), ShipperRoutes.RESUME, "", RESUME_TIMEOUT),
                    ResumeAnswer.class);
            return "shipping".equals(resumed.state()) ? null
                    : name + " takes writes again but its shipper did not resume (it is " + resumed.state() + ")";
        } catch (RoleException | IllegalArgumentException e) {
            return name + " takes writes again but its shipper did not resume (" + e.getMessage() + ")";
        }
    }
}
