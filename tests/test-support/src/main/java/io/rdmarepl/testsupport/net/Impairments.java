package io.rdmarepl.testsupport.net;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A bad link rather than a cut one.
 * <ul>
 *   <li>{@link #loss}: a share of the packets between two hosts dropped at random, in both directions, by an nftables
 *       rule in each host's namespace ({@code ip saddr <peer> numgen random mod 100 < N drop}). Needs the {@code nft}
 *       tool (Debian package nftables; .ci/run installs it).</li>
 *   <li>{@link #delay}: {@code tc qdisc ... netem delay D J} on a host's interface (all its traffic, both peers'),
 *       where the kernel has {@code sch_netem}. Kernels built without it (some VM kernels are) answer "Specified
 *       qdisc kind is unknown": {@link #delayUnavailable} says so, and callers go on with loss alone.</li>
 * </ul>
 * {@link #restoreAll()} (and removing the namespaces) undoes everything.
 */
public final class Impairments {
    private final Map<String, NetHost> lossTables = new LinkedHashMap<>();
    private final List<NetHost> delayed = new ArrayList<>();
    private final List<String> described = new ArrayList<>();

    Impairments() {
    }

    /** Empty when {@code nft} runs here; else one line saying why {@link #loss} cannot. */
    public static Optional<String> lossUnavailable() {
        SystemCommand.Result version = SystemCommand.attempt(List.of("nft", "--version"));
        return version.succeeded() ? Optional.empty()
                : Optional.of("packet loss needs nft (apt-get install nftables): " + version.firstLine());
    }

    /** {@code percent} of the packets from {@code a} to {@code b} and from {@code b} to {@code a} are dropped. */
    public synchronized void loss(NetHost a, NetHost b, int percent) {
        if (percent < 1 || percent > 100) {
            throw new IllegalArgumentException("loss percent must be in [1, 100]: " + percent);
        }
        dropFrom(a, b, percent);
        dropFrom(b, a, percent);
        described.add(percent + "% loss " + a.name() + " <-> " + b.name());
    }

    /** Every packet leaving {@code host} waits {@code delay} plus or minus {@code jitter} (netem). */
    public synchronized void delay(NetHost host, Duration delay, Duration jitter) {
        if (host.namespace().isEmpty()) {
            throw new UnsupportedOperationException("the client host is the root namespace: no delay on it");
        }
        host.run("tc", "qdisc", "replace", "dev", "eth0", "root", "netem", "delay", delay.toMillis() + "ms", jitter.toMillis() + "ms");
        delayed.add(host);
        described.add(delay.toMillis() + "±" + jitter.toMillis() + " ms delay out of " + host.name());
    }

    /** Empty when netem can delay {@code host}'s packets; else one line saying why not (the probe leaves nothing). */
    public static Optional<String> delayUnavailable(NetHost host) {
        SystemCommand.Result added = SystemCommand.attempt(host.command(List.of("tc", "qdisc", "add", "dev", "lo", "root", "netem",
                "delay", "1ms")));
        if (added.succeeded()) {
            SystemCommand.attempt(host.command(List.of("tc", "qdisc", "del", "dev", "lo", "root")));
            return Optional.empty();
        }
        return Optional.of("no netem delay on this kernel (`tc qdisc add ... netem`: " + added.firstLine() + ")");
    }

    /** Loss and delay are gone. */
    public synchronized void restoreAll() {
        lossTables.forEach((table, host) -> host.run("nft", "delete", "table", "inet", table.substring(table.indexOf(' ') + 1)));
        lossTables.clear();
        for (NetHost host : delayed) {
            SystemCommand.attempt(host.command(List.of("tc", "qdisc", "del", "dev", "eth0", "root")));
        }
        delayed.clear();
        described.clear();
    }

    private void dropFrom(NetHost peer, NetHost host, int percent) {
        if (host.namespace().isEmpty()) {
            throw new UnsupportedOperationException("the client host is the root namespace: no loss rule on it");
        }
        String table = "rdmarepl_loss_" + peer.address().replace('.', '_');
        String key = host.name() + " " + table;
        if (lossTables.containsKey(key)) {
            throw new IllegalStateException(host.name() + " loses packets from " + peer.name() + " already: restore first");
        }
        SystemCommand.run(host.command(List.of("nft", "-f", "-")), "table inet " + table + " {\n"
                + "  chain input {\n"
                + "    type filter hook input priority 0; policy accept;\n"
                + "    ip saddr " + peer.address() + (percent == 100 ? "" : " numgen random mod 100 < " + percent) + " drop\n"
                + "  }\n"
                + "}\n");
        lossTables.put(key, host);
    }

    @Override
    public synchronized String toString() {
        return described.isEmpty() ? "nothing" : described.toString();
    }
}
