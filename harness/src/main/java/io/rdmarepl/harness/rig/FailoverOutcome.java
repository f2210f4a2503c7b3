package io.rdmarepl.harness.rig;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one SIGKILL of the primary came to.
 *
 * @param promoted              the coordinator promoted the member the trial expected ({@link CoordinatorView#standby()})
 * @param detectionMs           the coordinator's own figure (its {@code last_failover}): for how long the primary had
 *                              failed both signals when it decided
 * @param killToDetectionMs     wall clock, SIGKILL to the coordinator's SUSPECT transition (what the user waits for)
 * @param promotionMs           the coordinator's figure: decision to PROMOTED (fence, drain, epoch, promote)
 * @param promotionSteps        the coordinator's {@code steps_ms} (fence, drain, epoch_write, applier_promote), empty if absent
 * @param killToPromotedMs      wall clock, SIGKILL to the coordinator's PROMOTED transition
 * @param killToClientSwitchMs  SIGKILL to the client's data source receiving the topology that names the new primary
 * @param rtoMs                 SIGKILL to the first write the new primary acknowledged, as the client saw it
 * @param acknowledgedByOld     transactions the old primary acknowledged (before and just after the kill)
 * @param acknowledgedByNew     transactions the new primary acknowledged
 * @param lostAcknowledged      acknowledged by the old primary, absent on the new one (async mode: what was in flight)
 * @param missingOnNew          acknowledged by the new primary and absent on it: must be 0
 * @param unaccounted           acknowledgements by neither server: must be 0
 * @param writablePrimariesAfter servers of the pair that accept a write afterwards: must be 1
 * @param history               the coordinator's transitions: ms after the kill (negative: before it), phase reached, reason
 * @param transitionsBeforeKill transitions before the kill: the coordinator failed over a healthy primary; must be 0
 * @param lostIds               the lost ids, for comparisons (not printed)
 * @param acknowledgedByOldIds  ids the old primary acknowledged (not printed)
 * @param mode                  the shipper's replication mode: async or sync
 * @param writers               the client's writer threads
 * @param syncAtKill            sync mode: the shipper's {@code sync_state} and {@code acknowledged_lsn} just before the
 *                              kill (what it promised) and {@code primary_sync_state}, the primary's
 *                              {@code pg_stat_replication.sync_state} of the shipper's connection (what it enforced),
 *                              {@code primary_flush_lsn} (its flush position there), {@code replica_durable_lsn} (the
 *                              applier's, read after it) and {@code flush_within_replica} (the first at or below the
 *                              second; a diagnosis, not a verdict: a Debezium heartbeat confirmed after the last
 *                              shipped commit may legitimately put it past); empty in async mode
 * @param inFlightAtKill        transactions the client had begun and not seen return when the kill was sent
 * @param firstAckMs            the client's start (a new data source: topology, pool) to its first acknowledged commit
 * @param acknowledgedLast100MsBeforeKill acknowledgements by the old primary in the 100 ms before the kill: the load
 *                              the kill hit
 * @param acknowledgedByOldAfterKill acknowledgements by the old primary after the kill (its orphaned backends)
 * @param commitLatencyUs       the client's transactions acknowledged by the old primary before the kill, µs:
 *                              {@code median}, {@code p99}, {@code max}, {@code count} (empty when none)
 * @param coordinatorSays       from the coordinator's {@code last_failover}: {@code replication_mode} it heard from the
 *                              shipper and {@code kept} (what the promotion keeps of what clients were told), when present
 * @param lostDetail            sync mode diagnosis: each lost id (at most 20) with when its acknowledgement came relative
 *                              to the kill; empty when nothing was lost
 * @param killedAtMs            when the SIGKILL was sent, wall clock (epoch ms): to find the trial in logs
 * @param killedAtMonotonicNs   the same on CLOCK_MONOTONIC (Linux: System.nanoTime()), what {@code perf} stamps
 *                              events with: to find the trial in a scheduler trace
 */
public record FailoverOutcome(
        boolean promoted,
        String newPrimary,
        int epoch,
        long detectionMs,
        long killToDetectionMs,
        long promotionMs,
        Map<String, Object> promotionSteps,
        long killToPromotedMs,
        long killToClientSwitchMs,
        long rtoMs,
        int acknowledgedByOld,
        int acknowledgedByNew,
        int lostAcknowledged,
        int missingOnNew,
        int unaccounted,
        long clientFailures,
        int writablePrimariesAfter,
        String message,
        List<Map<String, Object>> history,
        int transitionsBeforeKill,
        Set<Long> lostIds,
        Set<Long> acknowledgedByOldIds,
        String mode,
        int writers,
        Map<String, Object> syncAtKill,
        int inFlightAtKill,
        long firstAckMs,
        int acknowledgedLast100MsBeforeKill,
        int acknowledgedByOldAfterKill,
        Map<String, Object> commitLatencyUs,
        Map<String, Object> coordinatorSays,
        List<String> lostDetail,
        long killedAtMs,
        long killedAtMonotonicNs) {

    /** Sync mode: a commit returned only once the replica held it. */
    public boolean sync() {
        return "sync".equals(mode);
    }

    /**
     * Promoted because of the kill (not before it), the client wrote to the new primary, nothing it acknowledged there is
     * missing, one writable primary; in sync mode also: sync was on at the kill (the shipper says so and the primary's
     * pg_stat_replication too) and no transaction the old primary acknowledged is missing on the new one (RPO 0).
     */
    public boolean pass() {
        return promoted && transitionsBeforeKill == 0 && rtoMs >= 0
                && missingOnNew == 0 && unaccounted == 0 && writablePrimariesAfter == 1
                && (!sync() || (lostAcknowledged == 0 && "sync".equals(syncAtKill.get("sync_state"))
                && "sync".equals(syncAtKill.get("primary_sync_state"))));
    }

    /** The JSON form (the demo's {@code "failover"}, one trial of the benchmark). */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pass", pass());
        m.put("mode", mode);
        m.put("writers", writers);
        m.put("killed_at", java.time.Instant.ofEpochMilli(killedAtMs).toString());
        m.put("killed_at_monotonic_ns", killedAtMonotonicNs);
        if (sync()) {
            m.put("sync_at_kill", syncAtKill);
        }
        m.put("new_primary", newPrimary);
        m.put("epoch", epoch);
        m.put("detection_ms", detectionMs);
        m.put("kill_to_detection_ms", killToDetectionMs);
        m.put("promotion_ms", promotionMs);
        m.put("promotion_steps_ms", promotionSteps);
        m.put("kill_to_promoted_ms", killToPromotedMs);
        m.put("kill_to_client_switch_ms", killToClientSwitchMs);
        m.put("rto_ms", rtoMs);
        Map<String, Object> acknowledged = new LinkedHashMap<>();
        acknowledged.put("old_primary", acknowledgedByOld);
        acknowledged.put("new_primary", acknowledgedByNew);
        acknowledged.put("old_primary_last_100_ms_before_kill", acknowledgedLast100MsBeforeKill);
        acknowledged.put("old_primary_after_kill", acknowledgedByOldAfterKill);
        acknowledged.put("in_flight_at_kill", inFlightAtKill);
        m.put("acknowledged", acknowledged);
        m.put("commit_latency_us", commitLatencyUs);
        m.put("client_start_to_first_ack_ms", firstAckMs);
        m.put("lost_acknowledged", lostAcknowledged);
        if (!lostDetail.isEmpty()) {
            m.put("lost_detail", lostDetail);
        }
        m.put("missing_on_new_primary", missingOnNew);
        m.put("client_failures", clientFailures);
        m.put("writable_primaries_after", writablePrimariesAfter);
        m.put("transitions_before_kill", transitionsBeforeKill);
        m.put("message", message);
        if (!coordinatorSays.isEmpty()) {
            m.put("coordinator", coordinatorSays);
        }
        m.put("history", history);
        return m;
    }
}
