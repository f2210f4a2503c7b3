package io.rdmarepl.testsupport.net;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hosts without more machines: each {@link NetHost} is a Linux network namespace joined by a veth pair to one bridge
 * in the root namespace, on a private subnet {@code 10.213.x.0/24} of its own (x free on this machine, see
 * {@link Subnets}). The root namespace is the {@linkplain #client() client host} at {@code .1}: the test itself, its
 * JDBC clients and HTTP checks, runs there. Faults between hosts are real: {@link #partitions()} drops packets,
 * {@link #impairments()} loses (and where the kernel can, delays) them.
 * <pre>
 *   client (root ns, bridge rrb&lt;pid&gt;a, .1)
 *      |-- veth --- rdmarepl-&lt;pid&gt;-primary (.2)
 *      |-- veth --- rdmarepl-&lt;pid&gt;-standby (.3)
 *      `-- veth --- rdmarepl-&lt;pid&gt;-coordinator (.4)
 * </pre>
 * {@link #close()} kills what still runs inside the namespaces and removes them and the bridge; a shutdown hook
 * closes networks a test left open, and the first network of a JVM removes what a killed run left
 * ({@link StaleNetworks}). Make one with {@link #create()}, which skips the calling test where namespaces cannot be
 * made ({@link NetworkNamespaces#assumeAvailable()}).
 */
public final class Network implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Network.class);
    private static final Set<Network> LIVE = ConcurrentHashMap.newKeySet();
    /** Keeps veth names within the 15 characters Linux allows: "rr" + pid (7) + network letter + index (2) + "p". */
    private static final int MAX_HOSTS = 20;
    private static final AtomicInteger NETWORKS = new AtomicInteger();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Network::close), "rdmarepl-network-shutdown"));
    }

    private final long owner = ProcessHandle.current().pid();
    private final String bridge;
    private final int subnet;
    private final NetHost client;
    private final List<NetHost> hosts = new ArrayList<>();
    private final Partitions partitions = new Partitions();
    private final Impairments impairments = new Impairments();
    private final AtomicBoolean closed = new AtomicBoolean();

    private Network(String bridge, int subnet) {
        this.bridge = bridge;
        this.subnet = subnet;
        this.client = new NetHost("client", null, address(1));
    }

    /** A network with no host but the client; skips the calling test where namespaces are unavailable. */
    public static Network create() {
        NetworkNamespaces.assumeAvailable();
        StaleNetworks.cleanOnce();
        String bridge = StaleNetworks.BRIDGE_PREFIX + ProcessHandle.current().pid() + (char) ('a' + NETWORKS.getAndIncrement() % 26);
        Network network = Subnets.claim(x -> {
            Network made = new Network(bridge, x);
            SystemCommand.run(List.of("ip", "link", "add", bridge, "type", "bridge"));
            LIVE.add(made);
            SystemCommand.run(List.of("ip", "addr", "add", made.client.address() + "/24", "dev", bridge));
            SystemCommand.run(List.of("ip", "link", "set", bridge, "up"));
            return made;
        });
        LOG.info("network {}: bridge {}, client {}", network.subnet(), bridge, network.client.address());
        return network;
    }

    /** The root namespace, where the test runs: it reaches every host until a fault says otherwise. */
    public NetHost client() {
        return client;
    }

    /**
     * Makes host {@code name} ({@code [a-z][a-z0-9]*}, at most 12 characters): a namespace with loopback up and
     * {@code eth0} on the bridge at the next address of the subnet.
     */
    public synchronized NetHost addHost(String name) {
        return addHost(name, null);
    }

    /**
     * Like {@link #addHost(String)}, the host's processes on {@code cpus} only ({@link NetHost#cpus()}; null: any CPU).
     *
     * @param cpus a CPU list as {@code taskset -c} takes it, e.g. "0" or "1-3"
     */
    public synchronized NetHost addHost(String name, String cpus) {
        if (cpus != null && !cpus.matches("\\d+([-,]\\d+)*")) {
            throw new IllegalArgumentException("CPU list must be like 0, 1-3 or 0,2: " + cpus);
        }
        if (!name.matches("[a-z][a-z0-9]{0,11}")) {
            throw new IllegalArgumentException("host name must match [a-z][a-z0-9]{0,11}: " + name);
        }
        if (hosts.stream().anyMatch(h -> h.name().equals(name)) || hosts.size() >= MAX_HOSTS) {
            throw new IllegalArgumentException("host " + name + " exists already, or the network is full: " + hosts);
        }
        int index = hosts.size() + 2;
        String namespace = NetworkNamespaces.PREFIX + owner + "-" + name;
        String outside = "rr" + bridge.substring(StaleNetworks.BRIDGE_PREFIX.length()) + index;
        NetHost host = new NetHost(name, namespace, address(index), cpus);
        SystemCommand.run(List.of("ip", "netns", "add", namespace));
        hosts.add(host);
        SystemCommand.run(List.of("ip", "link", "add", outside, "type", "veth", "peer", "name", outside + "p"));
        SystemCommand.run(List.of("ip", "link", "set", outside + "p", "netns", namespace));
        SystemCommand.run(List.of("ip", "link", "set", outside, "master", bridge));
        SystemCommand.run(List.of("ip", "link", "set", outside, "up"));
        SystemCommand.run(List.of("ip", "-n", namespace, "link", "set", outside + "p", "name", "eth0"));
        SystemCommand.run(List.of("ip", "-n", namespace, "addr", "add", host.address() + "/24", "dev", "eth0"));
        SystemCommand.run(List.of("ip", "-n", namespace, "link", "set", "eth0", "up"));
        SystemCommand.run(List.of("ip", "-n", namespace, "link", "set", "lo", "up"));
        Partitions.prepare(host);
        LOG.info("host {}", host);
        return host;
    }

    public synchronized List<NetHost> hosts() {
        return List.copyOf(hosts);
    }

    /** Cuts and heals links between hosts. */
    public Partitions partitions() {
        return partitions;
    }

    /** Packet loss (and delay, where the kernel has netem) between hosts. */
    public Impairments impairments() {
        return impairments;
    }

    /** e.g. "10.213.40.0/24". */
    public String subnet() {
        return Subnets.FIRST_TWO_OCTETS + subnet + ".0/24";
    }

    /** Kills what still runs on the hosts, removes the namespaces and the bridge. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (NetHost host : hosts()) {
            host.namespace().ifPresent(StaleNetworks::removeNamespace);
        }
        SystemCommand.attempt(List.of("ip", "link", "del", bridge));
        LIVE.remove(this);
    }

    @Override
    public String toString() {
        return "network " + subnet() + " " + hosts() + "; cut: " + partitions + "; impaired: " + impairments;
    }

    private String address(int index) {
        return Subnets.FIRST_TWO_OCTETS + subnet + "." + index;
    }
}
