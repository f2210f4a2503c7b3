package io.rdmarepl.cli.rig;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one SIGKILL of the primary came to.
 *
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
        Set<Long> acknowledgedByOldIds) {

    /**
     * Promoted because of the kill (not before it), the client wrote to the new primary, nothing it acknowledged there is
     * missing, one writable primary.
     */
    public boolean pass() {
        return promoted && transitionsBeforeKill == 0 && InProcessCoordinator.STANDBY.equals(newPrimary) && rtoMs >= 0
                && missingOnNew == 0 && unaccounted == 0 && writablePrimariesAfter == 1;
    }

    /** The JSON form (the demo's {@code "failover"}, one trial of the benchmark). */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pass", pass());
        m.put("mode", "async");
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
        m.put("acknowledged", acknowledged);
        m.put("lost_acknowledged", lostAcknowledged);
        m.put("missing_on_new_primary", missingOnNew);
        m.put("client_failures", clientFailures);
        m.put("writable_primaries_after", writablePrimariesAfter);
        m.put("transitions_before_kill", transitionsBeforeKill);
        m.put("message", message);
        m.put("history", history);
        return m;
    }
}
