package io.rdmarepl.coordinator.machine;

import io.rdmarepl.control.ApplierRoutes;
import io.rdmarepl.control.EpochRequest;
import io.rdmarepl.coordinator.config.MemberConfig;
import io.rdmarepl.coordinator.roles.RoleClient;
import io.rdmarepl.coordinator.roles.RoleException;
import java.time.Duration;

/** The last step of every promotion: the chosen standby's applier takes writes at the new epoch. */
final class ApplierPromoter {
    static final Duration PROMOTE_TIMEOUT = Duration.ofSeconds(30);

    private final RoleClient roles;

    ApplierPromoter(RoleClient roles) {
        this.roles = roles;
    }

    /** @throws Refused when the applier does not answer; the epoch is published already, so PROMOTING retries it */
    void promote(MemberConfig chosen, int epoch) {
        try {
            roles.post(chosen.applierAdmin().orElseThrow(), ApplierRoutes.PROMOTE, new EpochRequest(epoch).toJson(), PROMOTE_TIMEOUT);
        } catch (RoleException e) {
            // the epoch is already bumped: retried from PROMOTING on every cycle until the applier answers
            throw new Refused("epoch " + epoch + " is published but " + chosen.name() + "'s applier did not promote yet ("
                    + e.getMessage() + "); the coordinator keeps retrying");
        }
    }
}
