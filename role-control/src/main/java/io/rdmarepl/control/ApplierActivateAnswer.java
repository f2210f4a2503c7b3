package io.rdmarepl.control;

/**
 * An applier's answer to {@code POST /activate}.
 *
 * @param state the applier's state now (streaming once it follows)
 * @param ring  the URI of the fresh ring it reads
 * @param epoch the ring's epoch
 */
public record ApplierActivateAnswer(String state, String ring, int epoch) {
}
