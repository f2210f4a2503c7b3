package io.rdmarepl.testsupport.net;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Cuts between hosts, as a partition makes them: packets are dropped silently at the receiving host, so senders see
 * timeouts, not errors, and established connections hang rather than break. A one-way cut {@code from -> to} is a
 * policy-routing rule in {@code to}'s namespace, {@code ip rule add pref 10 from <from> blackhole}, ahead of the
 * local table (moved from preference 0 to 100 when the host was made, see {@link #prepare}): {@code to} stops
 * hearing {@code from}, while {@code from} still hears {@code to}. A two-way cut is both. No package is needed
 * beyond iproute2; healing deletes the rules, and the connections that survived resume.
 * <p>
 * The client host (the root namespace) can be cut from nobody: rules there would touch the whole machine.
 */
public final class Partitions {
    private static final String PREFERENCE = "10";
    private final Set<Cut> cuts = new LinkedHashSet<>();

    /** One direction that is cut: {@code to} hears nothing from {@code from}. */
    public record Cut(NetHost from, NetHost to) {
        @Override
        public String toString() {
            return from.name() + " -> " + to.name();
        }
    }

    Partitions() {
    }

    /** Lets rules of preference 10 come before the local table (preference 0 otherwise matches every local address). */
    static void prepare(NetHost host) {
        host.run("ip", "rule", "add", "pref", "100", "lookup", "local");
        host.run("ip", "rule", "del", "pref", "0");
    }

    /** {@code a} and {@code b} no longer hear each other. */
    public synchronized void cut(NetHost a, NetHost b) {
        cutOneWay(a, b);
        cutOneWay(b, a);
    }

    /** {@code host} hears none of {@code others}, nor they it. */
    public synchronized void isolate(NetHost host, NetHost... others) {
        for (NetHost other : others) {
            cut(host, other);
        }
    }

    /** {@code to} no longer hears {@code from}; {@code from} still hears {@code to}. */
    public synchronized void cutOneWay(NetHost from, NetHost to) {
        if (to.namespace().isEmpty()) {
            throw new UnsupportedOperationException("cannot cut " + from.name() + " -> " + to.name()
                    + ": the client host is the root namespace, where a rule would touch the whole machine");
        }
        Cut cut = new Cut(from, to);
        if (cuts.add(cut)) {
            to.run("ip", "rule", "add", "pref", PREFERENCE, "from", from.address(), "blackhole");
        }
    }

    /** Both directions between {@code a} and {@code b} carry packets again. */
    public synchronized void heal(NetHost a, NetHost b) {
        healOneWay(a, b);
        healOneWay(b, a);
    }

    public synchronized void healOneWay(NetHost from, NetHost to) {
        if (cuts.remove(new Cut(from, to))) {
            to.run("ip", "rule", "del", "pref", PREFERENCE, "from", from.address(), "blackhole");
        }
    }

    /** Every cut made so far is healed. */
    public synchronized void healAll() {
        for (Cut cut : new ArrayList<>(cuts)) {
            healOneWay(cut.from(), cut.to());
        }
    }

    /** The directions cut now. */
    public synchronized List<Cut> cuts() {
        return List.copyOf(cuts);
    }

    @Override
    public synchronized String toString() {
        return cuts.isEmpty() ? "nothing" : cuts.toString();
    }
}
