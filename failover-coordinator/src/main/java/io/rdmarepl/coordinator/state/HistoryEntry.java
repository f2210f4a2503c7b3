package io.rdmarepl.coordinator.state;

/**
 * One state change of the cluster, for {@code rdmarepl history}.
 *
 * @param atMs   wall-clock time of the change, ms since the Unix epoch
 * @param reason the sentence that explains it, e.g. "primary failed 3 probes in 21 ms ..."
 * @param epoch  the epoch after the change
 */
public record HistoryEntry(long atMs, String from, String to, String reason, int epoch) {
}
