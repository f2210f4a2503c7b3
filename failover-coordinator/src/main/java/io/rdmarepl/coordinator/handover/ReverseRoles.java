package io.rdmarepl.coordinator.handover;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmarepl.coordinator.config.MemberConfig;
import io.rdmarepl.coordinator.detect.StandbyView;
import io.rdmarepl.coordinator.roles.RoleClient;
import io.rdmarepl.coordinator.roles.RoleException;
import io.rdmarepl.format.Lsn;
import java.net.URI;
import java.time.Duration;

/**
 * The roles that make an old primary follow the new one: every member runs a shipper and an applier, and the
 * ones not in use wait ({@code activation=on-request}) until these calls wake them. The old primary's shipper
 * gives up its slot, its applier starts following, and the new primary's shipper copies every published table
 * to it from a fresh slot, then streams.
 */
public final class ReverseRoles {
    private static final Duration ACTIVATE_TIMEOUT = Duration.ofSeconds(60);

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
     * The follower's own shipper drops its slot, so a standby keeps no WAL for a stream no one reads.
     *
     * @return a sentence for the history
     */
    public String retireShipper(MemberConfig follower) {
        if (follower.shipperAdmin().isEmpty()) {
            return follower.name() + " has no shipper endpoint: drop its replication slot by hand if one is left";
        }
        try {
            JsonNode answer = roles.post(follower.shipperAdmin().get(), "/retire", "", ACTIVATE_TIMEOUT);
            return follower.name() + "'s shipper retired" + (answer.path("slot_dropped").asBoolean(false) ? " and its slot dropped" : "");
        } catch (RoleException e) {
            return follower.name() + "'s shipper did not retire (" + e.getMessage() + "): drop its replication slot by hand";
        }
    }

    /** @throws RoleException when the follower's applier refuses or does not answer */
    public void startApplier(MemberConfig follower, int epoch) {
        roles.post(follower.applierAdmin().orElseThrow(), "/activate", "{\"epoch\":" + epoch + "}", ACTIVATE_TIMEOUT);
    }

    /** @throws RoleException when the new primary's shipper refuses or does not answer */
    public void startShipper(MemberConfig newPrimary, int epoch) {
        roles.post(newPrimary.shipperAdmin().orElseThrow(), "/activate", "{\"epoch\":" + epoch + "}", ACTIVATE_TIMEOUT);
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
