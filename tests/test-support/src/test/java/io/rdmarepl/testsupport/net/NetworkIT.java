package io.rdmarepl.testsupport.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The fixture's own checks: a PostgreSQL server on one host is reached from the client and from another host
 * through the bridge, and not once a cut, a one-way cut or 100% loss is in the way; healing restores it; a request
 * watch sees who sent what when; closing leaves no namespace or bridge; a killed run's namespace is removed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NetworkIT {
    private Network network;
    private NetHost a;
    private NetHost b;
    private PostgresServer server;

    @BeforeAll
    void start() {
        network = Network.create();
        a = network.addHost("alpha");
        b = network.addHost("beta");
        server = PostgresServer.builder("netns").durability(Durability.FAST).on(a).start();
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
        if (network != null) {
            network.close();
        }
    }

    @Test
    void serverOnAHostListensOnItsAddressAndItsLoopbackOnly() {
        assertThat(server.host()).isEqualTo(a.address());
        assertThat(server.show("listen_addresses")).isEqualTo("127.0.0.1," + a.address());
        assertThat(reachable(network.client(), a.address())).as("the client reaches the server through the bridge").isTrue();
        assertThat(reachable(b, a.address())).as("another host reaches it").isTrue();
        assertThat(reachable(a, "127.0.0.1")).as("its own host reaches it on loopback").isTrue();
        assertThat(reachable(network.client(), "127.0.0.1")).as("the root namespace's loopback is another host's").isFalse();
    }

    @Test
    void cutsDropPacketsUntilHealed() {
        network.partitions().cut(a, b);
        assertThat(reachable(b, a.address())).as("cut both ways").isFalse();
        assertThat(reachable(network.client(), a.address())).as("the client is not cut").isTrue();
        network.partitions().heal(a, b);
        assertThat(reachable(b, a.address())).as("healed").isTrue();

        network.partitions().cutOneWay(b, a);
        assertThat(network.partitions().cuts()).hasToString("[beta -> alpha]");
        assertThat(reachable(b, a.address())).as("alpha hears nothing from beta: no handshake").isFalse();
        network.partitions().healAll();
        assertThat(network.partitions().cuts()).isEmpty();
        assertThat(reachable(b, a.address())).isTrue();
    }

    @Test
    void totalLossDropsEverythingUntilRestored() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Impairments.lossUnavailable().isEmpty(),
                () -> Impairments.lossUnavailable().orElse(""));
        network.impairments().loss(a, b, 100);
        assertThat(reachable(b, a.address())).isFalse();
        network.impairments().restoreAll();
        assertThat(reachable(b, a.address())).isTrue();
    }

    @Test
    void aRequestWatchSeesWhoSentRequestsOfItsKindAndWhenFirstAndLast() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Impairments.lossUnavailable().isEmpty(),
                () -> Impairments.lossUnavailable().orElse(""));
        try (RequestWatch posts = RequestWatch.on(a, "POST", server.port())) {
            send(b, "POST /lease HTTP/1.1");
            send(network.client(), "GET /status HTTP/1.1");
            long betweenNs = System.nanoTime();
            send(b, "POST /lease HTTP/1.1");

            var seen = posts.seen();
            assertThat(seen).as("POSTs from beta only, not the client's GET").containsOnlyKeys(b.address());
            long toleranceNs = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(20); // jiffies, and the listing's own time
            assertThat(seen.get(b.address()).firstNs()).as("the first POST, before the GET").isLessThan(betweenNs);
            assertThat(seen.get(b.address()).lastNs()).as("the second POST").isGreaterThan(betweenNs - toleranceNs);

            posts.reset();
            assertThat(posts.seen()).isEmpty();
        }
    }

    @Test
    void theServerRestartsOnItsHost() {
        long before = server.pid();
        server.restart();
        assertThat(server.pid()).isNotEqualTo(before);
        assertThat(reachable(b, a.address())).isTrue();
        assertThat(server.show("listen_addresses")).contains(a.address());
    }

    @Test
    void closingRemovesTheNamespacesAndTheBridgeAndStaleOnesAreRemoved() {
        String stale = NetworkNamespaces.PREFIX + deadPid() + "-left";
        SystemCommand.run(List.of("ip", "netns", "add", stale));
        StaleNetworks.clean();
        assertThat(SystemCommand.run(List.of("ip", "netns", "list"))).doesNotContain(stale);

        Network other = Network.create();
        NetHost host = other.addHost("gamma");
        String namespace = host.namespace().orElseThrow();
        assertThat(SystemCommand.run(List.of("ip", "netns", "list"))).contains(namespace);
        other.close();
        assertThat(SystemCommand.run(List.of("ip", "netns", "list"))).doesNotContain(namespace);
        assertThat(SystemCommand.run(List.of("ip", "-o", "-4", "addr", "show"))).doesNotContain(other.subnet().replace(".0/24", ".1/"));
    }

    /** Opens a connection from {@code from} to the server's port and sends {@code line} as a request would begin. */
    private void send(NetHost from, String line) {
        SystemCommand.run(from.command(List.of("timeout", "2", "bash", "-c", "exec 3<>/dev/tcp/" + a.address() + "/" + server.port()
                + " && printf '" + line + "\\r\\n\\r\\n' >&3")));
    }

    /** Whether a TCP connection from {@code from} to {@code address} at the server's port opens within a second. */
    private boolean reachable(NetHost from, String address) {
        return SystemCommand.attempt(from.command(List.of("timeout", "1", "bash", "-c",
                "exec 3<>/dev/tcp/" + address + "/" + server.port()))).succeeded();
    }

    private static long deadPid() {
        long pid = 4_000_000;
        while (ProcessHandle.of(pid).isPresent()) {
            pid++;
        }
        return pid;
    }
}
