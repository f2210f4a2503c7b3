package io.rdmarepl.coordinator.fence;

import io.rdmarepl.coordinator.config.MemberConfig;
import java.sql.SQLException;

/**
 * Makes members refuse writes and take them again ({@link SqlFencer}: SQL, {@code fence.command}, the shipper's
 * {@code POST /fence}). An interface so the state machine's tests can fence without a server.
 */
public interface Fencer {
    /**
     * Fences an old primary: read-only and its client sessions ended when it answers, else {@code fence.command}.
     *
     * @return what was done, and whether it is certain
     * @throws FenceException when the member is unreachable and the fence command failed or timed out
     */
    Fenced fence(MemberConfig member);

    /**
     * Fences a member whose shipper saw its postmaster exit, without trying SQL first.
     *
     * @param exit what the shipper said of the exit
     * @throws FenceException when the fence command failed or timed out
     */
    Fenced fenceExited(MemberConfig member, String exit);

    /**
     * A fenced member that answers writable again is made read-only again.
     *
     * @return what was done, or null when the member is unreachable or already read-only
     */
    String refence(MemberConfig member);

    /**
     * A switchover's first step: the member refuses client writes and its client sessions end; its shipper ships on.
     *
     * @return how many client sessions were ended
     */
    int fenceClients(MemberConfig member) throws SQLException;

    /** Lifts the server-wide read-only a fence set. */
    void unfence(MemberConfig member) throws SQLException;

    /**
     * Stops the member's shipper and waits for its answer.
     *
     * @throws io.rdmarepl.coordinator.roles.RoleException when the shipper does not answer
     */
    void stopShipperNow(MemberConfig member);
}
