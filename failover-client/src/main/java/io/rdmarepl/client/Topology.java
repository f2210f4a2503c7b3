package io.rdmarepl.client;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The coordinator's view of the cluster at one version: which server takes writes, in which epoch.
 * Versions grow with every change; the epoch grows with every failover (a new primary).
 *
 * @param cluster the cluster's name, empty if the coordinator did not send one
 * @param version grows with every change of the topology
 * @param epoch   grows with every failover
 * @param phase   {@code HEALTHY}, or {@code SUSPECT}/{@code FENCING}/{@code DRAINING}/{@code PROMOTING} while a
 *                failover runs; kept as text so that phases added later do not break older clients
 * @param primary the server taking writes, or null while a failover is in progress
 * @param members every server the coordinator knows, in its order
 * @param leader  whether the coordinator that answered leads (true when it did not say: an older coordinator)
 * @param ageMs   how old the answering coordinator's knowledge was: 0 while it leads, else the time since it last
 *                read the state store; -1 when it did not say (an older coordinator)
 */
public record Topology(String cluster, long version, long epoch, String phase, Member primary, List<Member> members,
                       boolean leader, long ageMs) {
    public Topology {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(phase, "phase");
        members = List.copyOf(members);
    }

    /** A topology from a coordinator that says nothing of its leadership or age. */
    public Topology(String cluster, long version, long epoch, String phase, Member primary, List<Member> members) {
        this(cluster, version, epoch, phase, primary, members, true, -1);
    }

    public Optional<Member> primaryIfKnown() {
        return Optional.ofNullable(primary);
    }

    /**
     * @return e.g. "v12 epoch 3 HEALTHY primary pga" or "v13 epoch 3 FENCING no primary".
     */
    public String describe() {
        return "v" + version + " epoch " + epoch + " " + phase +
            (primary == null ? " no primary" : " primary " + primary.name());
    }
}
