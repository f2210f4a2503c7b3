package io.rdmarepl.coordinator.state;

/** What a member of the cluster is for now. */
public enum Role {
    /** Takes writes; its shipper feeds the standbys. */
    PRIMARY,
    /** A replica kept up to date by its applier; a failover candidate. */
    STANDBY,
    /** A former primary made to refuse writes; stays so until it rejoins as a standby. */
    FENCED,
    /** A former primary being copied from the new one; a standby (and a candidate) once the copy is applied. */
    REJOINING
}
