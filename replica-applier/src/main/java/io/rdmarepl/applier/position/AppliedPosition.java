package io.rdmarepl.applier.position;

import io.rdmarepl.format.Lsn;

/** The last source transaction committed on the replica: a row of {@code rdmarepl.applied_position}. */
public record AppliedPosition(String source, long commitLsn, long txId, long epoch) {

    public static AppliedPosition none(String source) {
        return new AppliedPosition(source, Lsn.INVALID, 0, 0);
    }

    @Override
    public String toString() {
        return source + " at " + Lsn.format(commitLsn) + " (tx " + txId + ", epoch " + epoch + ")";
    }
}
