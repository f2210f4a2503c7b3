package io.rdmarepl.control;

/**
 * A shipper's answer to {@code POST /resume}.
 *
 * @param state   the shipper role's state now ({@code shipping})
 * @param resumed whether a fenced shipper was started again; false when it was shipping already
 */
public record ResumeAnswer(String state, boolean resumed) {
}
