package io.rdmarepl.shipper.role;

import java.util.Locale;

/** Where a {@link ShipperRole} stands; {@code /status} shows it as {@code role_state}. */
public enum RoleState {
    /** {@code activation=on-request}: nothing started, no connection to the primary, until {@code POST /activate}. */
    WAITING,
    /**
     * {@code activation=immediate}: the process's shipper is starting (connecting to the primary and the standbys). The
     * admin endpoint answers meanwhile, and a coordinator's lease renewal reaches the lease an earlier shipper left.
     */
    STARTING,
    /** A shipper captures and ships. */
    SHIPPING,
    /** Told to stop (or stopped itself when its lease ran out): ships nothing, may be activated again. */
    FENCED,
    /** Its member is a standby now: no shipper runs and the slot is dropped, so the primary keeps no WAL for it. */
    RETIRED;

    /** As {@code /status} and the admin answers write it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
