package io.rdmarepl.coordinator.fence;

/**
 * What fencing an old primary did.
 *
 * @param sentence  one sentence for the history and the failover report
 * @param confirmed the old primary certainly takes no more writes: the SQL fence succeeded, {@code fence.command}
 *                  exited 0, or its postmaster was seen to exit. Otherwise only its lease running out makes it refuse
 *                  writes, and a promotion waits for that ({@link LeaseWait}).
 */
public record Fenced(String sentence, boolean confirmed) {
}
