package io.rdmarepl.control;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A shipper's lease, part of its {@link LeaseAnswer}: at most lease + check + self-fence after its last renewal, a
 * reachable primary refuses writes. Boxed: a field the answer left out is null, and the coordinator then assumes its own.
 *
 * @param leaseMs            {@code fence.lease.ms}; 0 = the shipper runs no lease
 * @param leaseCheckMs       how often the shipper looks at its lease
 * @param selfFenceTimeoutMs the longest the self-fence of the primary may take
 */
public record LeaseTerms(@JsonProperty("lease_ms") Long leaseMs,
                         @JsonProperty("lease_check_ms") Long leaseCheckMs,
                         @JsonProperty("self_fence_timeout_ms") Long selfFenceTimeoutMs) {
}
