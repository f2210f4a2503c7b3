package io.rdmarepl.testsupport.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/**
 * The client-side history of a trial: every acknowledged write, by whom and when, as the clients saw it (never the
 * system's own view of itself). Clients of several threads record into one history; reads are snapshots.
 */
public final class WriteHistory {
    private final ConcurrentLinkedQueue<Ack> acks = new ConcurrentLinkedQueue<>();
    /**
     * Acks by member, kept as they come: a trial polls {@link #count} while the failover it measures runs, on the
     * standby's CPU, so the count must not walk the history (a scan compiled by the JIT inside the window cost the
     * roles up to 12 ms of that CPU).
     */
    private final ConcurrentHashMap<String, LongAdder> counts = new ConcurrentHashMap<>();

    public void acknowledged(long id, String member, long invokedNs, long acknowledgedNs) {
        acks.add(new Ack(id, member, invokedNs, acknowledgedNs, System.currentTimeMillis()));
        counts.computeIfAbsent(member, m -> new LongAdder()).increment();
    }

    /** Every ack so far, in the order their commits returned. */
    public List<Ack> acks() {
        List<Ack> sorted = new ArrayList<>(acks);
        sorted.sort(Comparator.comparingLong(Ack::acknowledgedNs));
        return sorted;
    }

    public List<Ack> acksBy(String member) {
        return acks().stream().filter(a -> a.member().equals(member)).toList();
    }

    /** How many writes {@code member} acknowledged so far. */
    public long count(String member) {
        LongAdder count = counts.get(member);
        return count == null ? 0 : count.sum();
    }

    /** Every acknowledged id, whoever acknowledged it. */
    public Set<Long> ids() {
        return acks.stream().map(Ack::id).collect(Collectors.toSet());
    }

    /** The ids {@code member} acknowledged. */
    public Set<Long> ids(String member) {
        return acks.stream().filter(a -> a.member().equals(member)).map(Ack::id).collect(Collectors.toSet());
    }

    public int size() {
        return acks.size();
    }
}
