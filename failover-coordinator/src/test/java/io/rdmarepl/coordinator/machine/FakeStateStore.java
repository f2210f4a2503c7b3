package io.rdmarepl.coordinator.machine;

import io.rdmarepl.coordinator.state.ClusterState;
import io.rdmarepl.coordinator.store.Durability;
import io.rdmarepl.coordinator.store.StateStore;
import io.rdmarepl.coordinator.store.StateStoreException;
import io.rdmarepl.coordinator.store.Versioned;
import java.util.function.UnaryOperator;

/**
 * A state store in memory, with the two rules the real ones keep: a compare-and-set on a version that moved on stores
 * nothing, and a coordinator that does not lead may not write. {@link #takenOverBy} plays a second coordinator that
 * takes the lead and writes.
 */
final class FakeStateStore implements StateStore {
    private Versioned<ClusterState> stored = new Versioned<>(null, NOTHING_STORED);
    private boolean leader = true;
    /** When the store last heard the cluster, once it stopped hearing it (a ZooKeeper quorum gone silent); else null: now. */
    private Long knownAsOfNs;
    private long reads;

    FakeStateStore() {
    }

    /** A store that holds {@code state} already, as after a coordinator's restart. */
    FakeStateStore(ClusterState state) {
        stored = new Versioned<>(state, 7);
    }

    @Override
    public synchronized Versioned<ClusterState> read() {
        reads++;
        return stored;
    }

    @Override
    public synchronized long compareAndSet(long expectedVersion, ClusterState next, Durability durability) {
        if (stored.version() != expectedVersion) {
            return NOTHING_STORED;
        }
        if (!leader) {
            throw new StateStoreException("fake store: this coordinator does not lead; only the leader writes");
        }
        stored = new Versioned<>(next, stored.version() + 1);
        return stored.version();
    }

    @Override
    public synchronized boolean isLeader() {
        return leader;
    }

    @Override
    public synchronized long knownAsOfNs() {
        return knownAsOfNs == null ? System.nanoTime() : knownAsOfNs;
    }

    /** From now on the store hears the cluster no more: what it reads is known as of this moment, which it returns. */
    synchronized long hearsTheClusterNoMore() {
        knownAsOfNs = System.nanoTime();
        return knownAsOfNs;
    }

    /** The store hears the cluster again. */
    synchronized void hearsTheCluster() {
        knownAsOfNs = null;
    }

    /** How many times the store was read so far. */
    synchronized long reads() {
        return reads;
    }

    /** Another coordinator takes the lead and writes {@code change} of what is stored. */
    synchronized void takenOverBy(UnaryOperator<ClusterState> change) {
        leader = false;
        stored = new Versioned<>(change.apply(stored.value()), stored.version() + 1);
    }

    synchronized void leader(boolean leads) {
        this.leader = leads;
    }

    /** What is stored now; null while empty. */
    synchronized ClusterState state() {
        return stored.value(); // not read(): the test looking is not the coordinator reading
    }

    @Override
    public String describe() {
        return "fake store";
    }

    @Override
    public void close() {
    }
}
