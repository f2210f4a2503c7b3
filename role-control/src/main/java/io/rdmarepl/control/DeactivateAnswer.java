package io.rdmarepl.control;

/**
 * An applier's answer to {@code POST /deactivate}.
 *
 * @param state   the role's state now (waiting for an activation)
 * @param stopped whether an applier was running and stopped
 */
public record DeactivateAnswer(String state, boolean stopped) {
}
