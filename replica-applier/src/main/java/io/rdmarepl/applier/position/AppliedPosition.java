package io.rdmarepl.applier.position;

import io.rdmarepl.format.Lsn;

/**
 * The last source transaction committed on the replica: a row of {@code rdmarepl.applied_position}.
 *
 * @param epoch         the newest epoch the ring was given (its last group's, or a later activation's)
 * @param promotedEpoch the epoch at which this replica was promoted, 0 while it follows the source
 */
public record AppliedPosition(String source, long commitLsn, long txId, long epoch, long promotedEpoch) {

    public static AppliedPosition none(String source) {
        return new AppliedPosition(source, Lsn.INVALID, 0, 0, 0);
    }

    /** Promoted, and not followed since. */
    public boolean promoted() {
        return promotedEpoch > 0;
    }

    @Override
    public String toString() {
        return source + " at " + Lsn.format(commitLsn) + " (tx " + txId + ", epoch " + epoch
                + (promoted() ? ", promoted at epoch " + promotedEpoch : "") + ")";
    }
}
