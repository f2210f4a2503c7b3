package io.rdmarepl.control;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A shipper's answer to {@code POST /retire} (it may carry more fields; readers ignore them).
 *
 * @param state       the shipper role's state now
 * @param slotDropped whether its replication slot was dropped (false when it had none)
 * @param synchronousStandbyNamesCleared whether retiring a sync-mode shipper emptied the primary's
 *                                       synchronous_standby_names (left set, commits there would wait forever)
 */
public record RetireAnswer(String state, @JsonProperty("slot_dropped") boolean slotDropped,
                           @JsonProperty("synchronous_standby_names_cleared") boolean synchronousStandbyNamesCleared) {
}
