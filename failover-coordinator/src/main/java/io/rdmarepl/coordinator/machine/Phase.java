package io.rdmarepl.coordinator.machine;

/**
 * The failover state machine of a cluster. Clients are pointed at the primary in {@link #HEALTHY},
 * {@link #SUSPECT} (it may recover; it is not fenced yet) and {@link #PROMOTED}; from fencing to promotion there is
 * no primary to write to.
 *
 * <pre>
 *  HEALTHY --(probe fails AND heartbeats stop)--> SUSPECT --(recovers)--> HEALTHY
 *  SUSPECT --(still failed)--> FENCING --> DRAINING --> PROMOTING --> PROMOTED
 *  any --(operator: failover / promote)--> FENCING ...
 * </pre>
 */
public enum Phase {
    /** The primary answers and ships; standbys follow. */
    HEALTHY,
    /** The primary failed its probes and its heartbeats stopped; one more look before acting. */
    SUSPECT,
    /** Making the old primary refuse writes (or running fence.command). */
    FENCING,
    /** The chosen standby applies everything its ring holds. */
    DRAINING,
    /** The epoch is bumped; the standby is being made writable. */
    PROMOTING,
    /** The new primary takes writes; the old one is fenced until it rejoins. */
    PROMOTED;

    public boolean hasWritablePrimary() {
        return this == HEALTHY || this == SUSPECT || this == PROMOTED;
    }
}
