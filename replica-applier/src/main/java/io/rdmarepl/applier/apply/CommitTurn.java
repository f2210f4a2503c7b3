package io.rdmarepl.applier.apply;

import java.sql.SQLException;

/**
 * What a group's commit waits for before it writes the applied position: with parallel apply, that every group
 * before it has committed ({@link CommitOrder}), so commits become visible in source order and
 * {@code rdmarepl.applied_position} only ever moves forward. The group's rows are already sent by then: they ran
 * while the groups before it were still running.
 */
interface CommitTurn {
    /** A serial applier's turn: always now. */
    CommitTurn NOW = (session, rowsSent) -> { };

    /**
     * Returns once this group may commit.
     *
     * @param rowsSent every row of the group ran already (false: a lone row goes with the commit, after the turn)
     * @throws Abandoned when it must not commit at all (a group before it failed, or this one blocks a group before
     *                   it inside the replica): the caller rolls back, and the apply thread applies it again alone
     */
    void await(ReplicaSession session, boolean rowsSent) throws SQLException;

    /** This group gave up its turn; nothing of it was committed. */
    final class Abandoned extends SQLException {
        private static final long serialVersionUID = 1L;

        Abandoned(String why) {
            super(why, "40P01"); // deadlock_detected's class: a retry after a rollback is the remedy
        }
    }
}
