package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.position.AppliedPosition;

/**
 * The replica was promoted (its row of {@code rdmarepl.applied_position} says at which epoch) and is a primary: an
 * applier that followed its old source again would make it read-only for its clients and take a fenced shipper's
 * frames. Only an activation at a newer epoch, the coordinator's when a switchover makes this member a standby again,
 * follows.
 */
public final class PromotedReplicaException extends IllegalStateException {
    private final transient AppliedPosition position;

    PromotedReplicaException(String source, AppliedPosition position, int ringEpoch, String replica) {
        super("the replica " + replica + " was promoted at epoch " + position.promotedEpoch() + " (rdmarepl.applied_position, "
                + "source " + source + "): it is a primary now, and this applier does not follow " + source + " at epoch "
                + ringEpoch + " (ring.epoch or the activation's); the coordinator activates it at a newer epoch when a "
                + "switchover makes this member a standby again (POST /activate)");
        this.position = position;
    }

    /** The row that says so: the promotion's epoch, and the position applied up to then. */
    public AppliedPosition position() {
        return position;
    }
}
