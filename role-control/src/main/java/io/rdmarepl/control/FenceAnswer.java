package io.rdmarepl.control;

/**
 * A shipper's answer to {@code POST /fence}.
 *
 * @param state the shipper role's state now: fenced, or the state it was in when nothing shipped (waiting, retired)
 */
public record FenceAnswer(String state) {
}
