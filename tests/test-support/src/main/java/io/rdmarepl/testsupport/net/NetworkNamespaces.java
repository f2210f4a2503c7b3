package io.rdmarepl.testsupport.net;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this process can make hosts out of Linux network namespaces: {@code ip netns add}, veth pairs and a bridge
 * need root or CAP_NET_ADMIN and the iproute2 {@code ip} tool. Probed once per JVM by making a namespace and a veth
 * pair and removing them again. Tests call {@link #assumeAvailable()}: where namespaces are unavailable they are
 * skipped with one line naming why, never failed.
 */
public final class NetworkNamespaces {
    /** Every namespace, bridge and veth this fixture makes starts with it (namespaces) or with "rr" (links). */
    public static final String PREFIX = "rdmarepl-";
    private static final Logger LOG = LoggerFactory.getLogger(NetworkNamespaces.class);
    private static volatile Optional<String> unavailable;

    private NetworkNamespaces() {
    }

    /** Aborts the calling test (JUnit: skipped) with one line when namespaces cannot be made here. */
    public static void assumeAvailable() {
        Optional<String> why = unavailableReason();
        Assumptions.assumeTrue(why.isEmpty(), () -> why.orElse(""));
    }

    /** Empty when namespaces work here; else one line saying why not (logged once). */
    public static synchronized Optional<String> unavailableReason() {
        if (unavailable == null) {
            unavailable = probe();
            unavailable.ifPresent(LOG::warn);
        }
        return unavailable;
    }

    private static Optional<String> probe() {
        if (!System.getProperty("os.name", "").toLowerCase().contains("linux")) {
            return Optional.of(skip("not Linux (" + System.getProperty("os.name") + ")"));
        }
        String namespace = PREFIX + ProcessHandle.current().pid() + "-probe";
        String veth = "rrprobe" + ProcessHandle.current().pid() % 100_000;
        SystemCommand.Result made = SystemCommand.attempt(List.of("ip", "netns", "add", namespace));
        if (!made.succeeded()) {
            return Optional.of(skip("`ip netns add` failed: " + made.firstLine()));
        }
        try {
            SystemCommand.Result pair = SystemCommand.attempt(List.of("ip", "link", "add", veth, "type", "veth", "peer", "name", veth + "p"));
            if (!pair.succeeded()) {
                return Optional.of(skip("`ip link add ... type veth` failed: " + pair.firstLine()));
            }
            SystemCommand.attempt(List.of("ip", "link", "del", veth));
            SystemCommand.Result inside = SystemCommand.attempt(List.of("ip", "netns", "exec", namespace, "ip", "link", "set", "lo", "up"));
            if (!inside.succeeded()) {
                return Optional.of(skip("`ip netns exec` failed: " + inside.firstLine()));
            }
            return Optional.empty();
        } finally {
            SystemCommand.attempt(List.of("ip", "netns", "del", namespace));
        }
    }

    private static String skip(String why) {
        return "network-namespace tests skipped: " + why + " (they need Linux, root or CAP_NET_ADMIN, and iproute2)";
    }
}
