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

    FakeStateStore() {
    }

    /** A store that holds {@code state} already, as after a coordinator's restart. */
    FakeStateStore(ClusterState state) {
        stored = new Versioned<>(state, 7);
    }

    @Override
    public synchronized Versioned<ClusterState> read() {
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

    /** Another coordinator takes the lead and writes {@code change} of what is stored. */
    synchronized void takenOverBy(UnaryOperator<ClusterState> change) {
        leader = false;
        stored = new Versioned<>(change.apply(stored.value()), stored.version() + 1);
    }

    synchronized void leader(boolean leads) {
        this.leader = leads;
    }

    /** What is stored now; null while empty. */
    ClusterState state() {
        return read().value();
    }

    @Override
    public String describe() {
        return "fake store";
    }

    @Override
    public void close() {
    }
}
