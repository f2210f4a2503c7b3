package io.rdmarepl.coordinator.state;

/**
 * The failover state machine of a cluster. Clients are pointed at the primary in {@link #HEALTHY},
 * {@link #SUSPECT} (it may recover; a failover refused after its fence step left it fenced, which is lifted before
 * HEALTHY), {@link #PROMOTED} and {@link #REJOINING}; from fencing to promotion there is no primary to write to.
 *
 * <pre>
 *  HEALTHY --(probe fails AND heartbeats stop, or its shipper says it is fenced)--> SUSPECT
 *  SUSPECT --(recovers: answers; a fence of a failover that did not happen lifted)--> HEALTHY
 *  SUSPECT --(still failed)--> FENCING --> DRAINING --> PROMOTING --> PROMOTED
 *  any --(operator: failover / promote)--> FENCING ...
 *  HEALTHY --(operator: switchover)--> SWITCHOVER --(standby applied the marker)--> PROMOTING --> PROMOTED
 *  PROMOTED --(operator: rejoin, or a switchover's last step)--> REJOINING --(copy applied)--> HEALTHY
 * </pre>
 *
 * <p>Each phase has a fixed code, published as the {@code rdmarepl_coordinator_phase} gauge: codes never change
 * meaning, so dashboards and alert rules written against them keep working when a phase is added.
 */
public enum Phase {
    /** The primary answers and ships; standbys follow. */
    HEALTHY(0),
    /**
     * The primary failed its probes and its heartbeats stopped, or it answers but a failover that did not happen left it
     * fenced (lifted before HEALTHY).
     */
    SUSPECT(1),
    /** Making the old primary refuse writes (or running fence.command). */
    FENCING(2),
    /** The chosen standby applies everything its ring holds. */
    DRAINING(3),
    /** The epoch is bumped; the standby is being made writable. */
    PROMOTING(4),
    /** The new primary takes writes; the old one is fenced until it rejoins. */
    PROMOTED(5),
    /**
     * A planned handover: the primary refuses client writes while the chosen standby applies everything up to a
     * marker written after the last client commit; nothing is lost and nobody writes until the promotion.
     */
    SWITCHOVER(6),
    /** The old primary is copied from the new one through the reverse shipper and applier; the primary takes writes. */
    REJOINING(7);

    private final int code;

    Phase(int code) {
        this.code = code;
    }

    /** The phase's fixed code, for the metric. */
    public int code() {
        return code;
    }

    /**
     * Whether entering this phase must be on disk before the coordinator acts on it. Only PROMOTING (it carries the
     * new epoch) and the phases an operator's command or a planned handover settle in must be. The failover's way
     * stations need not: lost in a host crash, the coordinator resumes from the durable phase before them, and a
     * durable FENCING would resume no better (a restarted coordinator decides again from SUSPECT either way); each
     * one spared saves a disk flush on the way to the new primary. The file store even writes them behind, off the
     * coordinator's thread, so a process crash may lose the last one too: a restart then resumes from the durable
     * phase before it, as after a host crash.
     */
    public boolean mustBeDurable() {
        return this != SUSPECT && this != FENCING && this != DRAINING && this != PROMOTED;
    }

    public boolean hasWritablePrimary() {
        return this == HEALTHY || this == SUSPECT || this == PROMOTED || this == REJOINING;
    }
}
