package io.rdmarepl.client;

/**
 * Told of each newer topology, in version order, on a thread of the {@link TopologyClient}: keep it short
 * and do not block.
 */
@FunctionalInterface
public interface TopologyListener {
    /**
     * @param previous the topology before, or null for the first one received
     * @param next     the newer topology
     */
    void onTopology(Topology previous, Topology next);
}
