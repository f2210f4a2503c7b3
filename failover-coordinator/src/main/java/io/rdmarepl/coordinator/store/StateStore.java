package io.rdmarepl.coordinator.store;

import io.rdmarepl.coordinator.state.ClusterState;

/**
 * Where the coordinators keep the {@link ClusterState}. Every change is a compare-and-set on the version that
 * was read, so two coordinators can never both promote: the second one's write fails, it re-reads and decides
 * again. Only the leader acts; the others watch.
 */
public interface StateStore extends AutoCloseable {
    /** Version of a store that holds nothing yet. */
    long NOTHING_STORED = -1;

    /**
     * @throws StateStoreException naming the store when it cannot be read (unreachable, corrupt)
     */
    Versioned<ClusterState> read();

    /**
     * Stores {@code next} if the stored version is still {@code expectedVersion}; it is on disk before this returns
     * unless {@code durability} is {@link Durability#LAZY}, and other readers see it at once (ZooKeeper) or within
     * milliseconds (the file store writes a lazy change behind).
     *
     * @return the new version, or {@link #NOTHING_STORED} when another writer came first
     * @throws StateStoreException naming the store when it cannot be written
     */
    long compareAndSet(long expectedVersion, ClusterState next, Durability durability);

    /** {@link #compareAndSet(long, ClusterState, Durability)}, on disk before it returns. */
    default long compareAndSet(long expectedVersion, ClusterState next) {
        return compareAndSet(expectedVersion, next, Durability.SYNCED);
    }

    /**
     * Up to when (System.nanoTime()) what {@link #read()} returns now is known to be the cluster's state: now for a store
     * no one else can write behind this coordinator's back unseen (a file); for ZooKeeper, when the quorum last answered
     * (a server cut off from its quorum still answers reads, with what it had). How old a follower's topology is counts
     * from here.
     */
    default long knownAsOfNs() {
        return System.nanoTime();
    }

    /** This coordinator holds the leadership now; only the leader may change anything. */
    boolean isLeader();

    /**
     * Like {@link #isLeader()}, without trying to take the leadership: for other threads than the coordinator's own
     * (the topology's readers), which must not change who leads.
     */
    default boolean holdsLeadership() {
        return isLeader();
    }

    /** One line for /status and logs, e.g. {@code file /var/lib/rdmarepl/main.json (leader)}. */
    String describe();

    @Override
    void close();
}
