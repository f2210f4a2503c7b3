package io.rdmarepl.testsupport.net;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One host of a {@link Network}: a network namespace with one interface ({@code eth0}) on the network's bridge and
 * its own loopback, or the root namespace itself (the {@linkplain Network#client() client host}, where the test runs).
 * Processes run on it through {@code ip netns exec}, which execs the command: the process's pid is the command's.
 */
public final class NetHost {
    private final String name;
    private final String namespace;
    private final String address;
    private final String cpus;

    NetHost(String name, String namespace, String address) {
        this(name, namespace, address, null);
    }

    NetHost(String name, String namespace, String address, String cpus) {
        this.name = name;
        this.namespace = namespace;
        this.address = address;
        this.cpus = cpus;
    }

    /** e.g. "primary": what tests and messages call it. */
    public String name() {
        return name;
    }

    /** Its address on the network, e.g. 10.213.40.2: what other hosts reach it at. */
    public String address() {
        return address;
    }

    /** The namespace's name; empty for the client host (the root namespace). */
    public Optional<String> namespace() {
        return Optional.ofNullable(namespace);
    }

    /**
     * The CPUs every process of this host runs on ({@code taskset}'s list, e.g. "0" or "1-3"), as if the host had only
     * those; empty: any CPU.
     */
    public Optional<String> cpus() {
        return Optional.ofNullable(cpus);
    }

    /**
     * {@code command} as run on this host: prefixed with {@code ip netns exec <namespace>} unless it is the root, and
     * with {@code taskset -c <cpus>} when the host has {@link #cpus()}. Both exec the command (the process's pid is the
     * command's), and its children inherit the namespace and the CPUs.
     */
    public List<String> command(List<String> command) {
        List<String> wrapped = new ArrayList<>();
        if (namespace != null) {
            wrapped.addAll(List.of("ip", "netns", "exec", namespace));
        }
        if (cpus != null) {
            wrapped.addAll(List.of("taskset", "-c", cpus));
        }
        wrapped.addAll(command);
        return wrapped;
    }

    /** A ProcessBuilder that starts {@code command} on this host. */
    public ProcessBuilder processBuilder(List<String> command) {
        return new ProcessBuilder(command(command));
    }

    /** Runs a short command on this host to its end; fails unless it exits 0. */
    public String run(String... command) {
        return SystemCommand.run(command(List.of(command)));
    }

    /** The processes in this host's namespace now ({@code ip netns pids}); empty for the root namespace. */
    public List<Long> pids() {
        if (namespace == null) {
            return List.of();
        }
        return SystemCommand.attempt(List.of("ip", "netns", "pids", namespace)).output().lines().map(String::trim)
                .filter(p -> p.matches("\\d+")).map(Long::valueOf).toList();
    }

    @Override
    public String toString() {
        return name + " (" + address + (namespace == null ? ", root namespace" : ", " + namespace) + (cpus == null ? "" : ", CPUs " + cpus)
                + ")";
    }
}
