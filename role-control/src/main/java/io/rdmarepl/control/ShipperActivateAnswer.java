package io.rdmarepl.control;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A shipper's answer to {@code POST /activate}.
 *
 * @param state       the shipper role's state now: shipping, or fenced when a fence came during the activation
 * @param slot        the replication slot it ships from
 * @param snapshot    the snapshot mode it started with: always initial (every published table is copied)
 * @param slotDropped whether a slot of that name existed and was dropped first
 */
public record ShipperActivateAnswer(String state, String slot, String snapshot, @JsonProperty("slot_dropped") boolean slotDropped) {
}
