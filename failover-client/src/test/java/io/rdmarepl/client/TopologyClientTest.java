package io.rdmarepl.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.testsupport.Await;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The long-poll client against a real HTTP server serving the coordinator's contract; no database needed.
 */
@Timeout(20)
class TopologyClientTest {
    private static final Duration DEADLINE = Duration.ofSeconds(5);
    private static final Member PGA = new Member("pga", "jdbc:postgresql://10.0.0.1:5432/app", "PRIMARY");
    private static final Member PGB = new Member("pgb", "jdbc:postgresql://10.0.0.2:5432/app", "PRIMARY");

    private TopologyServer coordinator;
    private TopologyClient client;

    @BeforeEach
    void startCoordinator() {
        coordinator = TopologyServer.start();
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        coordinator.close();
    }

    @Test
    void shouldTellListenersOfEveryNewerTopologyInOrder() {
        coordinator.publish(1, "HEALTHY", PGA, List.of(PGA));
        final List<long[]> changes = new CopyOnWriteArrayList<>();
        client = client(coordinator.url());
        client.addListener((previous, next) ->
            changes.add(new long[] {previous == null ? 0 : previous.version(), next.version()}));
        client.start();
        Await.until("the first topology arrives", DEADLINE, () -> changes.size() == 1);

        coordinator.publish(1, "FENCING", null, List.of(PGA));
        coordinator.publish(2, "HEALTHY", PGB, List.of(PGB));

        Await.until("the client follows to v3", DEADLINE, () -> client.current().get().version() == 3);
        assertThat(client.current().get().describe()).isEqualTo("v3 epoch 2 HEALTHY primary pgb");
        // each change starts where the previous one ended: no version told twice, none out of order
        assertThat(changes.get(0)).containsExactly(0, 1);
        for (int i = 1; i < changes.size(); i++) {
            assertThat(changes.get(i)[0]).isEqualTo(changes.get(i - 1)[1]);
            assertThat(changes.get(i)[1]).isGreaterThan(changes.get(i)[0]);
        }
        assertThat(changes.get(changes.size() - 1)[1]).isEqualTo(3);
    }

    @Test
    void shouldIgnoreUnknownFieldsFromTheCoordinator() {
        final ObjectNode doc = TopologyServer.document(7, "HEALTHY", PGA, List.of(PGA));
        doc.put("lease_ms", 3000);
        doc.putObject("raft").put("term", 9).put("leader", "coord2");
        ((ObjectNode) doc.get("primary")).put("lsn", "0/16B3748");
        ((ObjectNode) doc.get("members").get(0)).put("lag_bytes", 0).put("zone", "eu-1");
        coordinator.publish(doc);

        client = client(coordinator.url()).start();

        Await.until("the topology with unknown fields is read", DEADLINE, () -> client.current().isPresent());
        assertThat(client.current().get().primary()).isEqualTo(PGA);
        assertThat(client.current().get().epoch()).isEqualTo(7);
    }

    @Test
    void shouldAskAtOnceOnRefreshWhileTheLongPollIsHeld() {
        coordinator.publish(1, "HEALTHY", PGA, List.of(PGA));
        client = client(coordinator.url()).start();
        Await.until("the first topology arrives", DEADLINE, () -> client.current().isPresent());
        final int requestsBefore = coordinator.requests();

        // the held poll is not answered: only a fresh request can see this version
        coordinator.publishQuietly(TopologyServer.document(2, "HEALTHY", PGB, List.of(PGB)));
        client.refreshNow();

        final long ms = Await.until("the refresh sees v2", DEADLINE, () -> client.current().get().version() == 2);
        assertThat(ms).isLessThan(CoordinatorHttp.MAX_WAIT.toMillis());
        assertThat(coordinator.requests()).isGreaterThan(requestsBefore);
    }

    @Test
    void shouldEndAHeldLongPollWhenClosedWithoutWaitingForItsAnswer() {
        coordinator.publish(1, "HEALTHY", PGA, List.of(PGA));
        client = client(coordinator.url()).start();
        Await.until("the long poll is held (30 s)", DEADLINE, () -> coordinator.heldPolls() == 1);

        client.close();

        // a blocking read ignores interrupts: only closing its connection ends it before the coordinator answers
        assertThat(coordinator.heldPolls()).as("the coordinator still holds the poll it has not answered").isEqualTo(1);
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch((t) -> t.getName().startsWith("rdmarepl-topology-"));
        client = null;
    }

    @Test
    void shouldAskAgainAtOnceWhenARefreshDeliveredTheLongPollsAnswerFirst() {
        coordinator.publish(1, "HEALTHY", PGA, List.of(PGA));
        // a pause for early answers longer than the deadline: the client must not take this race for one
        client = new TopologyClient(List.of(coordinator.url()), Duration.ofMillis(200), Duration.ofSeconds(30),
            FailoverDataSourceConfig.TOPOLOGY_MAX_AGE_DEFAULT, Duration.ofSeconds(60)).start();
        Await.until("the first topology arrives", DEADLINE, () -> client.current().isPresent());
        // else the poll could arrive after v2 is published, take it at once, and the one after it wait for v3
        Await.until("the long poll for what follows v1 is held", DEADLINE, () -> coordinator.heldPolls() == 1);

        // mid-failover: a client that saw its primary fail refreshes, and gets v2 before the held poll does
        coordinator.publishQuietly(TopologyServer.document(1, "FENCING", null, List.of(PGA)));
        client.refreshNow();
        Await.until("the refresh sees v2", DEADLINE, () -> client.current().get().version() == 2);
        final int requestsBefore = coordinator.requests();
        coordinator.answerHeldPolls();
        Await.until("the long poll asks again", DEADLINE, () -> coordinator.requests() > requestsBefore);

        coordinator.publish(2, "HEALTHY", PGB, List.of(PGB));
        Await.until("the long poll brings v3 (the promotion)", DEADLINE, () -> client.current().get().version() == 3);
        assertThat(client.current().get().primary()).isEqualTo(PGB);
    }

    @Test
    void shouldFollowTheNextCoordinatorWhenOneIsDown() throws IOException {
        coordinator.publish(3, "HEALTHY", PGB, List.of(PGB));

        client = client(deadUrl(), coordinator.url()).start();

        Await.until("the topology arrives through the second coordinator", DEADLINE,
            () -> client.current().isPresent());
        assertThat(client.current().get().primary()).isEqualTo(PGB);
        assertThat(client.coordinatorsDown()).isFalse();
    }

    @Test
    void shouldLogOneWarningPerOutageWithoutStackTrace() throws IOException {
        coordinator.publish(1, "HEALTHY", PGA, List.of(PGA));
        final int port = coordinator.url().getPort();
        try (LogCapture log = new LogCapture(CoordinatorOutage.class, Level.DEBUG)) {
            client = client(coordinator.url()).start();
            Await.until("the first topology arrives", DEADLINE, () -> client.current().isPresent());

            coordinator.close();
            Await.until("the outage is noticed", DEADLINE, client::coordinatorsDown);
            Await.until("the client fails 5 more attempts (backoff 50, 100, 200, 400 ms)", DEADLINE,
                () -> log.events(Level.DEBUG).size() >= 6);
            coordinator = TopologyServer.start(port);
            // versions survive a coordinator restart (they live in its store): start where the last one stopped
            coordinator.publish(1, "HEALTHY", PGA, List.of(PGA));
            coordinator.publish(2, "HEALTHY", PGB, List.of(PGB));

            Await.until("the client follows the coordinator back", DEADLINE,
                () -> client.current().get().version() == 2);
            final List<ILoggingEvent> warnings = log.events(Level.WARN);
            assertThat(warnings).hasSize(1);
            assertThat(warnings.get(0).getFormattedMessage())
                .startsWith("no coordinator answers (" + coordinator.url() + ": ")
                .endsWith("retrying every 1000 ms at most, keeping the last topology known");
            assertThat(warnings.get(0).getThrowableProxy()).isNull();
            assertThat(log.events(Level.INFO)).singleElement()
                .satisfies((e) -> assertThat(e.getFormattedMessage()).startsWith(
                    "coordinator " + coordinator.url() + " answers again after "));
            assertThat(client.describeCoordinators()).contains("last answer from " + coordinator.url());
        }
    }

    @Test
    void shouldDescribeCoordinatorsThatDoNotAnswer() throws IOException {
        final URI dead = deadUrl();
        try (LogCapture log = new LogCapture(CoordinatorOutage.class, Level.WARN)) {
            client = client(dead).start();

            Await.until("the outage is noticed", DEADLINE, client::coordinatorsDown);

            assertThat(client.describeCoordinators())
                .startsWith("coordinators [" + dead + "] not answering for ")
                .contains(dead + ": cannot connect (ConnectException: Connection refused)");
            assertThat(client.current()).isEmpty();
            assertThat(log.events(Level.WARN)).hasSize(1);
        }
    }

    @Test
    void shouldLeaveACoordinatorThatAnswersFromAStaleStateForOneThatHoldsIt() {
        // c1 lost ZooKeeper 5 s ago and still names pga; c2 leads and has promoted pgb since
        try (TopologyServer stale = TopologyServer.start()) {
            stale.publish(aged(TopologyServer.document(1, "HEALTHY", PGA, List.of(PGA, PGB)), false, 5_000));
            coordinator.publish(1, "HEALTHY", PGA, List.of(PGA, PGB));
            coordinator.publish(aged(TopologyServer.document(2, "HEALTHY", PGB, List.of(PGA, PGB)), true, 0));

            client = client(stale.url(), coordinator.url()).start();

            Await.until("the client follows the coordinator that holds the state", DEADLINE,
                () -> client.current().map((t) -> t.version() == 2).orElse(false));
            assertThat(client.current().get().primary()).isEqualTo(PGB);
            assertThat(client.current().get().leader()).isTrue();
            assertThat(client.isFresh()).isTrue();
        }
    }

    @Test
    void shouldKeepButNotTrustATopologyOnlyAStaleCoordinatorConfirms() {
        coordinator.publish(aged(TopologyServer.document(1, "HEALTHY", PGA, List.of(PGA)), false, 5_000));

        client = new TopologyClient(List.of(coordinator.url()), Duration.ofMillis(200), Duration.ofSeconds(30),
            Duration.ofSeconds(1)).start();

        Await.until("the stale topology arrives", DEADLINE, () -> client.current().isPresent());
        Await.until("the stale coordinator counts as not answering", DEADLINE, client::coordinatorsDown);
        assertThat(client.isFresh()).isFalse();
        assertThat(client.describeCoordinators()).contains("answers from a state 5000 ms old (leader false)");
        assertThat(client.describeFreshness()).isEqualTo("topology never confirmed (bound 1000 ms)");

        // it reads ZooKeeper again
        coordinator.publish(aged(TopologyServer.document(1, "HEALTHY", PGA, List.of(PGA)), false, 40));
        Await.until("a fresh answer confirms the topology", DEADLINE, client::isFresh);
    }

    @Test
    void shouldStopTrustingTheTopologyWhenNoCoordinatorConfirmsItWithinTheBound() {
        coordinator.publish(1, "HEALTHY", PGA, List.of(PGA));
        final int port = coordinator.url().getPort();
        client = new TopologyClient(List.of(coordinator.url()), Duration.ofMillis(200), Duration.ofSeconds(30),
            Duration.ofSeconds(1)).start();
        Await.until("the first topology is confirmed", DEADLINE, client::isFresh);

        coordinator.close();

        final long ms = Await.until("the topology is too old to use", DEADLINE, () -> !client.isFresh());
        assertThat(ms).as("not before the bound").isGreaterThanOrEqualTo(500);
        assertThat(client.current()).as("kept, for messages and for when a coordinator answers again").isPresent();
        coordinator = TopologyServer.start(port);
        coordinator.publish(1, "HEALTHY", PGA, List.of(PGA));
        Await.until("the coordinator's answer confirms it again", DEADLINE, client::isFresh);
    }

    /** {@code doc} as a coordinator sends it that says whether it leads and how old its state is. */
    private static ObjectNode aged(final ObjectNode doc, final boolean leader, final long ageMs) {
        return doc.put("leader", leader).put("age_ms", ageMs);
    }

    private static TopologyClient client(final URI... coordinators) {
        return new TopologyClient(List.of(coordinators), Duration.ofMillis(200), Duration.ofSeconds(30));
    }

    /**
     * @return a URL on a port nothing listens on.
     */
    static URI deadUrl() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort());
        }
    }
}
