package io.rdmarepl.coordinator.store;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * When this coordinator last heard the ZooKeeper quorum, and the bound on leadership built on it (issue 21, scenario 3).
 * The contact is a {@code sync}, which only the ensemble's leader answers: a server cut off from the quorum lets it wait,
 * though it goes on answering pings and reads from what it has for {@code syncLimit} ticks (10 s with the sample
 * {@code zoo.cfg}), so the connection looks fine all that while. Each answered sync counts from the moment it was
 * sent.
 *
 * <p>Leadership counts only within {@code window} (half the session timeout) of that moment. Why another coordinator
 * cannot lead before it ends: the sync that was last answered, sent at {@code t}, went out before the cut; every request
 * touches the session on its server, and a follower passes its touches on to the ensemble's leader within half a tick
 * (its answer to the leader's ping), so the session's last touch at the leader is at least {@code t - interval - tick/2}
 * with a sync sent every {@code interval} (a twentieth of the session timeout), and it expires a session timeout after
 * that, at the earliest. A session timeout is at least two ticks, so the new leader comes at least {@code 0.2 x} the
 * session timeout (1 s) after this one stopped. A ZooKeeper leader cut off into the minority answers syncs itself until
 * it steps down ({@code syncLimit} ticks, like its followers' patience); the majority elects a new one no sooner and
 * expires the session a session timeout after that: the window ends first there too.
 */
final class QuorumContact {
    private final LongSupplier nanoClock;
    private volatile long windowNs;
    private long lastNs;
    private boolean heard;

    /** @param windowMs how long after the last answered sync leadership still counts */
    QuorumContact(long windowMs, LongSupplier nanoClock) {
        this.windowNs = TimeUnit.MILLISECONDS.toNanos(windowMs);
        this.nanoClock = nanoClock;
    }

    /** The server granted a shorter session than asked for: the window shrinks with it (half of {@code sessionTimeoutMs}). */
    void limitTo(long sessionTimeoutMs) {
        windowNs = Math.min(windowNs, TimeUnit.MILLISECONDS.toNanos(sessionTimeoutMs) / 2);
    }

    long windowMs() {
        return TimeUnit.NANOSECONDS.toMillis(windowNs);
    }

    /** How often to ask: ten times a window, so that one lost answer does not end it. */
    long intervalNs() {
        return windowNs / 10;
    }

    /** The quorum answered a sync sent at {@code sentNs}; an older answer arriving late moves nothing back. */
    synchronized void answered(long sentNs) {
        if (!heard || sentNs - lastNs > 0) {
            lastNs = sentNs;
            heard = true;
        }
    }

    /** The quorum answered a sync sent less than a window ago. */
    synchronized boolean recent() {
        return heard && nanoClock.getAsLong() - lastNs < windowNs;
    }

    /** When the last answered sync was sent (System.nanoTime()); {@code orElse} before any was. */
    synchronized long lastNs(long orElse) {
        return heard ? lastNs : orElse;
    }

    /** How long since the last answered sync was sent, in ms; -1 before any was. */
    synchronized long silentMs() {
        return heard ? TimeUnit.NANOSECONDS.toMillis(nanoClock.getAsLong() - lastNs) : -1;
    }
}
