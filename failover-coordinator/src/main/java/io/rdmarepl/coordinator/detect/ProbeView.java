package io.rdmarepl.coordinator.detect;

/**
 * The primary probe's state at one instant.
 *
 * @param failures       consecutive failed probes, counting one still unanswered after the timeout
 * @param error          why the last probe failed, null when it did not
 * @param failingForMs   since the first of those failures, 0 when none
 * @param sinceSuccessMs since the last probe that answered; {@link Long#MAX_VALUE} when none answered yet
 * @param walLsn         the primary's WAL position at the last answer (what it may have committed), null if unknown
 */
public record ProbeView(String jdbcUrl, int failures, String error, long failingForMs, long sinceSuccessMs, String walLsn) {
}
