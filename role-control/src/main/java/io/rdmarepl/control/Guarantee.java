package io.rdmarepl.control;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What a commit on the primary is promised now: part of a shipper's {@link LeaseAnswer}, from which the coordinator
 * learns what a failover must keep.
 *
 * @param replicationMode {@value #SYNC} or {@value #ASYNC}; null when the answer did not say (no shipper runs)
 * @param syncState       sync mode's state: enabling, {@value #SYNC}, degraded, failed; null in async mode
 * @param syncPolicy      sync mode's policy: strict, or degrade after N ms; null in async mode
 * @param acknowledgedLsn every commit up to it is held by the standbys ({@code 0/16B3748} form)
 */
public record Guarantee(@JsonProperty("replication_mode") String replicationMode,
                        @JsonProperty("sync_state") String syncState,
                        @JsonProperty("sync_policy") String syncPolicy,
                        @JsonProperty("acknowledged_lsn") String acknowledgedLsn) {
    public static final String SYNC = "sync";
    public static final String ASYNC = "async";
}
