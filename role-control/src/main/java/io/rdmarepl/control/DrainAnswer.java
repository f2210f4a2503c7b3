package io.rdmarepl.control;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * An applier's answer to {@code POST /drain}.
 *
 * @param appliedLsn everything in its ring is applied, up to this LSN ({@code 0/16B3748} form)
 */
public record DrainAnswer(@JsonProperty("applied_lsn") String appliedLsn) {
}
