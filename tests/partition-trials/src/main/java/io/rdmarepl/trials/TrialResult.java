package io.rdmarepl.trials;

import io.rdmarepl.testsupport.history.PrimaryWindow;
import java.util.List;
import java.util.Set;

/**
 * What one partition trial showed, from the client-side history and the coordinator's answers; the fields the issue's
 * {@code --json} report names per scenario. {@code lostBeforeFault}: the lost ones acknowledged well before the fault
 * began, which no failover may lose even in async mode. {@code selfFenceMs}: from the cut to the old primary's last acknowledged
 * write (-1 when there was no failover); {@code fencedBeforePromotingMs}: from that last write to the coordinator's
 * PROMOTING (positive: the old primary refused writes first).
 */
public record TrialResult(int scenario, int trial, String primaryBefore, String primaryAfter, List<PrimaryWindow> windows,
                   List<String> overlappingPrimaries, Set<Long> lostAcknowledged, Set<Long> lostBeforeFault, long selfFenceMs, long fencedBeforePromotingMs,
                   boolean healed, String notes) {

    public boolean failedOver() {
        return !primaryBefore.equals(primaryAfter);
    }

    /** One line for the test log: what held. */
    public String summary() {
        StringBuilder out = new StringBuilder("scenario " + scenario + " trial " + trial + ": primary " + primaryBefore + " -> "
                + primaryAfter + "; windows");
        for (int i = 0; i < windows.size(); i++) {
            PrimaryWindow w = windows.get(i);
            out.append(' ').append(w.member()).append('(').append(w.acks()).append(" acks)");
            if (i + 1 < windows.size()) {
                out.append(" gap ").append(w.gapMsBefore(windows.get(i + 1))).append(" ms");
            }
        }
        out.append("; overlapping primaries ").append(overlappingPrimaries.size());
        out.append("; lost acknowledged ").append(lostAcknowledged.size()).append(" (before the fault ")
                .append(lostBeforeFault.size()).append(')');
        if (selfFenceMs >= 0) {
            out.append("; self-fence ").append(selfFenceMs).append(" ms after the cut, ").append(fencedBeforePromotingMs)
                    .append(" ms before PROMOTING");
        }
        return out.append("; healed ").append(healed).append(notes.isEmpty() ? "" : "; " + notes).toString();
    }
}
