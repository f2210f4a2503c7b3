package io.rdmarepl.client;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * How fresh the topology a client follows is, and the rule that bounds it (issue 21, hole 3). A coordinator's answer
 * says how old its knowledge is ({@code age_ms}: 0 while it leads, else since it last read the state store). An answer
 * older than {@link #STALE_ANSWER} comes from a coordinator that lost its store (a minority cut off from ZooKeeper
 * still answers, with what it knew): it confirms nothing, and the client asks another coordinator. A fresh answer
 * confirms the topology as of {@code received - age}. Past {@code maxAge} without a confirmation, the topology is
 * not used: the primary it names may have been replaced meanwhile by coordinators this client cannot hear.
 */
final class TopologyFreshness {
    /**
     * A leader's knowledge is 0 ms old and a follower's is as old as the ZooKeeper quorum's last answer (asked every
     * 250 ms): older than this, the coordinator has lost its store (leadership ends at its first SUSPENDED, or when
     * the quorum has not answered for 2.5 s, half the session timeout).
     */
    static final Duration STALE_ANSWER = Duration.ofSeconds(2);

    private final long maxAgeNs;
    private long confirmedNs;
    private boolean confirmedOnce;

    /** @param maxAge zero for no bound */
    TopologyFreshness(final Duration maxAge) {
        this.maxAgeNs = maxAge.toNanos();
    }

    /** True when {@code answer}'s coordinator lost its store: its answer confirms nothing. */
    static boolean isStale(final Topology answer) {
        return answer.ageMs() > STALE_ANSWER.toMillis();
    }

    /**
     * A fresh answer with the version followed (or newer) arrived at {@code receivedNs}: the topology is confirmed as
     * of then minus its age. Older coordinators send no age: confirmed as of its arrival.
     */
    synchronized void confirmed(final Topology answer, final long receivedNs) {
        final long asOfNs = receivedNs - TimeUnit.MILLISECONDS.toNanos(Math.max(0, answer.ageMs()));
        if (!confirmedOnce || asOfNs - confirmedNs > 0) {
            confirmedNs = asOfNs;
            confirmedOnce = true;
        }
        notifyAll();
    }

    /** The topology may be used now: no bound, or confirmed within it. */
    synchronized boolean isFresh() {
        return maxAgeNs == 0 || (confirmedOnce && System.nanoTime() - confirmedNs <= maxAgeNs);
    }

    /**
     * Waits until the topology may be used, or {@code deadlineNs} (System.nanoTime) passes.
     *
     * @return true if it may be used
     */
    synchronized boolean awaitFresh(final long deadlineNs) throws InterruptedException {
        while (!isFresh()) {
            final long leftNs = deadlineNs - System.nanoTime();
            if (leftNs <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, leftNs);
        }
        return true;
    }

    /** e.g. "topology confirmed 31250 ms ago (bound 30000 ms)" or "topology never confirmed (bound 30000 ms)". */
    synchronized String describe() {
        final String bound = maxAgeNs == 0 ? "no bound" : "bound " + TimeUnit.NANOSECONDS.toMillis(maxAgeNs) + " ms";
        return confirmedOnce
            ? "topology confirmed " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - confirmedNs) + " ms ago (" + bound + ")"
            : "topology never confirmed (" + bound + ")";
    }

    /** How long a coordinator may hold a long poll: a third of the bound, so confirmations come well within it. */
    Duration pollWait(final Duration configured) {
        if (maxAgeNs == 0) {
            return configured;
        }
        final Duration third = Duration.ofNanos(maxAgeNs / 3);
        final Duration wait = third.compareTo(configured) < 0 ? third : configured;
        return wait.compareTo(CoordinatorHttp.MIN_WAIT) < 0 ? CoordinatorHttp.MIN_WAIT : wait;
    }
}
