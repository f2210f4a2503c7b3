package io.rdmarepl.control;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.Map;

/**
 * A shipper's answer to {@code POST /lease}, one flat object:
 * {@code {"replication_mode", "sync_state", "sync_policy", "acknowledged_lsn", "lease_ms", "lease_check_ms",
 * "self_fence_timeout_ms", "copy_progress"}}.
 *
 * @param guarantee    what a commit is promised now; null (its fields left out) when no shipper runs. Read back, it is
 *                     never null: its fields are then null
 * @param terms        the lease's terms, always written
 * @param copyProgress a running initial copy in brief (rows, bytes, rate and ETA in all, no per-table list), a document
 *                     the coordinator shows as is; null when no copy runs
 */
public record LeaseAnswer(@JsonUnwrapped Guarantee guarantee,
                          @JsonUnwrapped LeaseTerms terms,
                          @JsonProperty("copy_progress") Map<String, Object> copyProgress) {
}
