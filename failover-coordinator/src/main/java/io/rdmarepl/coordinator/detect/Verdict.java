package io.rdmarepl.coordinator.detect;

/**
 * What one look at the primary concluded, and the sentence that says why.
 *
 * @param failedForMs how long the failure has been visible (the older of the two signals), 0 when not failed
 */
public record Verdict(boolean primaryFailed, String sentence, long failedForMs) {
}
