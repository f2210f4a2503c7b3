package io.rdmarepl.coordinator.store;

/** How far a state change must get before {@link StateStore#compareAndSet(long, io.rdmarepl.coordinator.state.ClusterState, Durability)} returns. */
public enum Durability {
    /** On disk (or on a quorum's disks): survives a crash and a power loss. */
    SYNCED,
    /**
     * On disk a little later (with the next synced change at the latest), possibly written behind the caller: for a
     * change whose loss in a crash only repeats work. A store may treat it as {@link #SYNCED}.
     */
    LAZY
}
