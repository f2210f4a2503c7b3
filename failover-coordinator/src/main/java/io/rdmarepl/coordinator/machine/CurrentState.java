package io.rdmarepl.coordinator.machine;

import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.config.MemberConfig;
import io.rdmarepl.coordinator.state.ClusterState;
import io.rdmarepl.coordinator.state.Member;
import io.rdmarepl.coordinator.state.Phase;
import io.rdmarepl.coordinator.store.Durability;
import io.rdmarepl.coordinator.store.StateStore;
import io.rdmarepl.coordinator.store.Versioned;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster state as this coordinator last read or wrote it, and the one way to change it: a compare-and-set
 * against that version, published to the topology clients follow. What the failover and the handovers get instead of
 * the whole coordinator.
 */
final class CurrentState {
    /** Transitions are logged under the coordinator's name: that is where operators look for them. */
    private static final Logger LOG = LoggerFactory.getLogger(Coordinator.class);

    private final StateStore store;
    private final TopologyBoard topology;
    private final CoordinatorConfig config;
    private final CoordinatorClock clock;
    private volatile Versioned<ClusterState> current;

    CurrentState(StateStore store, TopologyBoard topology, CoordinatorConfig config, CoordinatorClock clock) {
        this.store = store;
        this.topology = topology;
        this.config = config;
        this.clock = clock;
        this.current = store.read();
    }

    /** The state, or null before the cluster is initialised. */
    ClusterState value() {
        return current.value();
    }

    /**
     * Reads the store again (a follower keeps up with the leader's writes) and publishes what it found, known as of
     * the store's last word with the cluster before the read (ZooKeeper: its quorum's last answer).
     */
    void reread() {
        long asOfNs = store.knownAsOfNs();
        current = store.read();
        publish(asOfNs);
    }

    /**
     * Publishes the state to the topology clients follow (a no-op when that version is out already), and confirms it as
     * of the store's last word with the cluster: the leader holds what it wrote, as long as it leads. A coordinator
     * that no longer hears its store ages from there.
     */
    void publish() {
        publish(store.knownAsOfNs());
    }

    private void publish(long asOfNs) {
        Versioned<ClusterState> now = current;
        if (now.value() != null) {
            topology.publish(now.value(), now.version(), this::jdbcUrlOf);
        }
        topology.confirm(asOfNs);
    }

    /** Moves to {@code next}, on disk before this returns when {@code next} must be durable; logs it. */
    void transition(Phase next, String reason) {
        ClusterState state = current.value();
        write(state.transition(next, reason, clock.nowMs()), next.mustBeDurable() ? Durability.SYNCED : Durability.LAZY);
        LOG.info("{} -> {}: {}", state.phase(), next, reason);
    }

    void write(ClusterState next) {
        write(next, Durability.SYNCED);
    }

    /** Compare-and-set against what this coordinator last read; on a conflict re-reads and refuses. */
    void write(ClusterState next, Durability durability) {
        long startNs = System.nanoTime();
        long version = store.compareAndSet(current.version(), next, durability);
        if (version == StateStore.NOTHING_STORED) {
            current = store.read();
            throw new Refused("the cluster state changed underneath (another coordinator acted); re-read epoch "
                    + (current.value() == null ? "?" : current.value().epoch()) + ", deciding again");
        }
        current = new Versioned<>(next, version);
        topology.publish(next, version, this::jdbcUrlOf);
        topology.confirm(startNs); // the store took it after this: the state as of then at least
    }

    /** Where a member is reached now: the configuration's address wins over the one stored at initialisation. */
    private String jdbcUrlOf(String member) {
        return config.member(member).map(MemberConfig::jdbcUrl)
                .orElseGet(() -> current.value().member(member).map(Member::jdbcUrl).orElse(null));
    }
}
