package io.rdmarepl.applier.apply;

import io.rdmarepl.format.Lsn;

/**
 * Why a group did not commit: the category, the source transaction it stopped at, and a message naming
 * table, column (when known) and LSN.
 */
public record ApplyFailure(FailureCategory category, long txId, long commitLsn, String table, String column,
                           String sqlState, String reason) {

    /** e.g. {@code transaction 7 (commit LSN 0/16B3F40): replica table "public"."t" has no column "c"}. */
    public String describe() {
        return "transaction " + txId + " (commit LSN " + Lsn.format(commitLsn) + "): " + reason
                + (sqlState == null ? "" : " [SQLState " + sqlState + "]");
    }
}
