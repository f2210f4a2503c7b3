package io.rdmarepl.coordinator.machine;

import io.rdmarepl.coordinator.config.MemberConfig;
import io.rdmarepl.coordinator.fence.FenceException;
import io.rdmarepl.coordinator.fence.Fenced;
import io.rdmarepl.coordinator.fence.Fencer;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** Fences by saying so: confirmed unless told otherwise; records what it was asked, as "fence a". */
final class FakeFencer implements Fencer {
    private final List<String> calls = new CopyOnWriteArrayList<>();
    /** Members made read-only by a confirmed fence and not unfenced since (what SqlFencer does in SQL). */
    private final Set<String> readOnly = ConcurrentHashMap.newKeySet();
    /** Members whose shipper a fence told to stop and nothing resumed since (what SqlFencer posts to /fence). */
    private final Set<String> shippersFenced = ConcurrentHashMap.newKeySet();
    private volatile Fenced fenceResult;
    private volatile String fenceFailure;
    private volatile String clientFenceFailure;

    /** The old primary's fence is not confirmed (unreachable, no fence.command): only its lease can stop it. */
    void unconfirmed() {
        fenceResult = new Fenced("unreachable; no fence.command configured: not confirmed, its lease must run out", false);
    }

    /** fence.command fails: the fence throws. */
    void failing(String why) {
        fenceFailure = why;
    }

    /** A switchover's client fence fails with {@code why}. */
    void clientFenceFailing(String why) {
        clientFenceFailure = why;
    }

    List<String> calls() {
        return calls;
    }

    boolean readOnly(String member) {
        return readOnly.contains(member);
    }

    boolean shipperFenced(String member) {
        return shippersFenced.contains(member);
    }

    /** Its shipper ships again ({@code POST /resume}). */
    void shipperResumed(String member) {
        shippersFenced.remove(member);
    }

    @Override
    public Fenced fence(MemberConfig member) {
        calls.add("fence " + member.name());
        if (fenceFailure != null) {
            throw new FenceException(fenceFailure);
        }
        Fenced result = fenceResult;
        shippersFenced.add(member.name());
        if (result != null) {
            return result;
        }
        readOnly.add(member.name());
        return new Fenced(member.name() + " made read-only, 0 client session(s) ended", true);
    }

    @Override
    public Fenced fenceExited(MemberConfig member, String exit) {
        calls.add("fenceExited " + member.name());
        shippersFenced.add(member.name());
        return new Fenced(member.name() + "'s postmaster exited: it takes no writes", true);
    }

    @Override
    public String refence(MemberConfig member) {
        return null;
    }

    @Override
    public int fenceClients(MemberConfig member) throws SQLException {
        calls.add("fenceClients " + member.name());
        if (clientFenceFailure != null) {
            throw new SQLException(clientFenceFailure);
        }
        return 2;
    }

    @Override
    public void unfence(MemberConfig member) {
        calls.add("unfence " + member.name());
        readOnly.remove(member.name());
    }

    @Override
    public void stopShipperNow(MemberConfig member) {
        calls.add("stopShipperNow " + member.name());
    }
}
