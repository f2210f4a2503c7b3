package io.rdmarepl.control;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/**
 * An applier's answer to {@code POST /promote}.
 *
 * @param state      {@value #PROMOTED}
 * @param appliedLsn the last LSN applied before the replica took writes
 * @param sequences  each sequence's value as the promotion set it (with headroom for the sampling interval)
 */
public record PromoteAnswer(String state, @JsonProperty("applied_lsn") String appliedLsn, Map<String, Long> sequences) {
    public static final String PROMOTED = "promoted";

    public static PromoteAnswer promoted(String appliedLsn, Map<String, Long> sequences) {
        return new PromoteAnswer(PROMOTED, appliedLsn, sequences);
    }
}
