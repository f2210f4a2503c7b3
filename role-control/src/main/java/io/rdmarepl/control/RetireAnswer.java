package io.rdmarepl.control;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A shipper's answer to {@code POST /retire} (it may carry more fields; readers ignore them).
 *
 * @param state       the shipper role's state now
 * @param slotDropped whether its replication slot was dropped (false when it had none)
 */
public record RetireAnswer(String state, @JsonProperty("slot_dropped") boolean slotDropped) {
}
