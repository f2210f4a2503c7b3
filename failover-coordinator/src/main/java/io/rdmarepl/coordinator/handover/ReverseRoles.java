package io.rdmarepl.coordinator.handover;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmarepl.control.ApplierRoutes;
import io.rdmarepl.control.ControlJson;
import io.rdmarepl.control.EpochRequest;
import io.rdmarepl.control.FenceRequest;
import io.rdmarepl.control.RetireAnswer;
import io.rdmarepl.control.ShipperRoutes;
import io.rdmarepl.coordinator.config.MemberConfig;
import io.rdmarepl.coordinator.detect.StandbyView;
import io.rdmarepl.coordinator.roles.RoleClient;
import io.rdmarepl.coordinator.roles.RoleException;
import io.rdmarepl.format.Lsn;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * The roles that make an old primary follow the new one: every member runs a shipper and an applier, and the
 * ones not in use wait ({@code activation=on-request}) until these calls wake them. The old primary's shipper
 * gives up its slot, its applier starts following, and the new primary's shipper copies every published table
 * to it from a fresh slot, then streams.
 */
public final class ReverseRoles {
    private static final Duration ACTIVATE_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration RETIRE_RETRY = Duration.ofMillis(250);

    private final RoleClient roles;

    public ReverseRoles(RoleClient roles) {
        this.roles = roles;
    }

    /** Checks before anything changes that both reverse roles are configured. */
    public static void requireConfigured(MemberConfig newPrimary, MemberConfig follower) {
        if (newPrimary.shipperAdmin().isEmpty()) {
            throw new IllegalStateException(newPrimary.name() + " has no shipper to feed " + follower.name()
                    + " (member." + newPrimary.name() + ".shipper.admin)");
        }
        if (follower.applierAdmin().isEmpty()) {
            throw new IllegalStateException(follower.name() + " has no applier to follow " + newPrimary.name()
                    + " with (member." + follower.name() + ".applier.admin)");
        }
    }

    /**
     * The follower's own shipper stops and drops its slot, so a standby keeps no WAL for a stream no one reads, and a
     * later start of that process ships nothing (it keeps its retirement). Fenced first: a shipper that still ships
     * refuses to retire. Asked again every {@link #RETIRE_RETRY} while it does not answer, for up to {@code wait}: an
     * old primary's shipper restarted by its supervisor during a partition is often still starting when the rejoin
     * comes, right after the partition heals.
     *
     * @return the retirement, answered or not
     */
    public Retirement retireShipper(MemberConfig follower, Duration wait) {
        if (follower.shipperAdmin().isEmpty()) {
            return new Retirement(true, follower.name() + " has no shipper endpoint: drop its replication slot by hand if one is left");
        }
        URI admin = follower.shipperAdmin().get();
        long deadlineNs = System.nanoTime() + wait.toNanos();
        while (true) {
            try {
                roles.post(admin, ShipperRoutes.FENCE, new FenceRequest(follower.name() + " rejoins as a standby").toJson(), ACTIVATE_TIMEOUT);
                RetireAnswer answer = ControlJson.read(roles.post(admin, ShipperRoutes.RETIRE, "", ACTIVATE_TIMEOUT), RetireAnswer.class);
                return new Retirement(true, follower.name() + "'s shipper retired"
                        + (answer.slotDropped() ? " and its slot dropped" : ""));
            } catch (RoleException e) {
                if (System.nanoTime() - deadlineNs >= 0) {
                    return new Retirement(false, follower.name() + "'s shipper did not retire yet (" + e.getMessage() + "); asked"
                            + " again until it answers, and meanwhile no standby takes its slot: its epoch is older than theirs");
                }
                LockSupport.parkNanos(RETIRE_RETRY.toNanos());
            }
        }
    }

    /**
     * Whether the follower's shipper retired.
     *
     * @param done    it answered (or there is none to ask)
     * @param message a sentence for the history
     */
    public record Retirement(boolean done, String message) {
    }

    /**
     * The follower's applier follows the new primary's shipper, both at {@code epoch}. When the shipper cannot start,
     * the applier's activation is taken back ({@code POST /deactivate}), so the member is as before and the next rejoin
     * may activate it again.
     *
     * @throws RoleException when either refuses or does not answer; its message says what was taken back
     */
    public void follow(MemberConfig newPrimary, MemberConfig follower, int epoch) {
        startApplier(follower, epoch);
        try {
            startShipper(newPrimary, epoch);
        } catch (RoleException e) {
            String undone;
            try {
                roles.post(follower.applierAdmin().orElseThrow(), ApplierRoutes.DEACTIVATE, "", ACTIVATE_TIMEOUT);
                undone = follower.name() + "'s applier was deactivated again";
            } catch (RoleException stop) {
                undone = follower.name() + "'s applier could not be deactivated again (" + stop.getMessage() + ")";
            }
            throw new RoleException(e.getMessage() + "; " + undone);
        }
    }

    /** @throws RoleException when the follower's applier refuses or does not answer */
    public void startApplier(MemberConfig follower, int epoch) {
        roles.post(follower.applierAdmin().orElseThrow(), ApplierRoutes.ACTIVATE, new EpochRequest(epoch).toJson(), ACTIVATE_TIMEOUT);
    }

    /** @throws RoleException when the new primary's shipper refuses or does not answer */
    public void startShipper(MemberConfig newPrimary, int epoch) {
        roles.post(newPrimary.shipperAdmin().orElseThrow(), ShipperRoutes.ACTIVATE, new EpochRequest(epoch).toJson(), ACTIVATE_TIMEOUT);
    }

    /**
     * Whether the follower holds the whole copy: the new primary's shipper finished it and the follower applied
     * up to its consistent point.
     *
     * @return a sentence saying it is done, or null while it is not
     */
    public String copied(MemberConfig newPrimary, StandbyView follower, Duration timeout) {
        URI shipper = newPrimary.shipperAdmin().orElseThrow();
        JsonNode status;
        try {
            status = roles.status(shipper, timeout);
        } catch (RoleException e) {
            return null;
        }
        String copyLsn = status.path("copy_lsn").asText(null);
        if (status.path("initial_copy").asBoolean(true) || copyLsn == null || follower.appliedLsn() == null) {
            return null;
        }
        if (Lsn.compare(Lsn.parse(follower.appliedLsn()), Lsn.parse(copyLsn)) < 0) {
            return null;
        }
        return follower.name() + " applied " + newPrimary.name() + "'s copy (consistent at " + copyLsn + ") and follows it, at "
                + follower.appliedLsn();
    }
}
