package io.rdmarepl.coordinator.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the coordinators agree on, kept in the state store: the epoch (bumped by every promotion, so frames
 * and writes of a fenced primary are refused), the current primary, the phase of the failover state machine,
 * every member with its role, and the most recent history. Immutable; changes produce a new state that is
 * written with compare-and-set.
 */
public record ClusterState(String cluster, int epoch, String primary, Phase phase, List<Member> members,
                           List<HistoryEntry> history) {
    /** History entries kept; older ones are dropped. */
    public static final int HISTORY_LIMIT = 200;

    public ClusterState {
        Objects.requireNonNull(phase, "phase");
        members = List.copyOf(members);
        history = List.copyOf(history);
    }

    public Optional<Member> member(String name) {
        return members.stream().filter(m -> m.name().equals(name)).findFirst();
    }

    public List<Member> withRole(Role role) {
        return members.stream().filter(m -> m.role() == role).toList();
    }

    /** The same state in {@code nextPhase}, with the change recorded in the history. */
    public ClusterState transition(Phase nextPhase, String reason, long atMs) {
        return new ClusterState(cluster, epoch, primary, nextPhase, members,
                append(new HistoryEntry(atMs, phase.name(), nextPhase.name(), reason, epoch)));
    }

    /**
     * {@code newPrimary} promoted at epoch + 1: it becomes PRIMARY, the old primary FENCED, the phase
     * {@code nextPhase}, and the change is recorded.
     */
    public ClusterState promote(String newPrimary, Phase nextPhase, String reason, long atMs) {
        List<Member> next = new ArrayList<>();
        for (Member m : members) {
            if (m.name().equals(newPrimary)) {
                next.add(m.withRole(Role.PRIMARY));
            } else if (m.role() == Role.PRIMARY) {
                next.add(m.withRole(Role.FENCED));
            } else {
                next.add(m);
            }
        }
        return new ClusterState(cluster, epoch + 1, newPrimary, nextPhase, next,
                append(new HistoryEntry(atMs, phase.name(), nextPhase.name(), reason, epoch + 1)));
    }

    /** The same state with {@code name}'s role changed (recorded). */
    public ClusterState withMemberRole(String name, Role role, String reason, long atMs) {
        List<Member> next = members.stream().map(m -> m.name().equals(name) ? m.withRole(role) : m).toList();
        return new ClusterState(cluster, epoch, primary, phase, next, append(new HistoryEntry(atMs, phase.name(), phase.name(), reason, epoch)));
    }

    private List<HistoryEntry> append(HistoryEntry entry) {
        List<HistoryEntry> next = new ArrayList<>(history.subList(Math.max(0, history.size() - HISTORY_LIMIT + 1), history.size()));
        next.add(entry);
        return next;
    }
}
