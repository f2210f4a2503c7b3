package io.rdmarepl.shipper.capture.pgoutput;

import static io.rdmarepl.shipper.capture.pgoutput.Fixtures.DEADLINE;
import static io.rdmarepl.shipper.capture.pgoutput.Fixtures.await;
import static io.rdmarepl.shipper.capture.pgoutput.Fixtures.endpoint;
import static io.rdmarepl.shipper.capture.pgoutput.Fixtures.pgoutputOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.shipper.capture.pgoutput.ReplicationException.Reason;
import io.rdmarepl.testsupport.PostgresServer;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a stream ends, each way reported to the blocked reader with a clear exception: close() from another thread,
 * the server terminating the walsender, a server fallen silent (the walsender stopped with SIGSTOP), and a slot
 * another connection streams.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ReplicationConnectionEndingIT {
    @TempDir
    static Path directory;
    static PostgresServer server;

    @BeforeAll
    static void startServer() throws Exception {
        Path hba = Fixtures.hbaFile(directory, "host all postgres 127.0.0.1/32 trust");
        server = PostgresServer.builder("replend").setting("hba_file", hba.toString()).start();
        server.execute("CREATE TABLE items (id int PRIMARY KEY); CREATE PUBLICATION items_pub FOR TABLE items");
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void shouldUnblockAReaderPromptlyWhenClosed() throws Exception {
        ReplicationConnection connection = startStreaming("close_slot", "items_pub");
        try {
            StreamReader reader = new StreamReader(connection);
            await("the reader is blocked in poll", DEADLINE, reader::insidePoll);

            connection.close();
            Throwable failure = reader.awaitFailure(Duration.ofSeconds(10));

            assertThat(failure).isInstanceOf(ReplicationException.class).hasMessageContaining("closed by close()");
            assertThat(((ReplicationException) failure).reason()).isEqualTo(Reason.CLOSED);
            connection.close();
            assertThatThrownBy(() -> connection.sendStatus(1, 1, 1, false))
                .isInstanceOf(ReplicationException.class).hasMessageContaining("closed by close()");
            await("the walsender is gone", DEADLINE, () -> Fixtures.queryOne(server,
                "SELECT pid FROM pg_stat_replication WHERE pid = ?", connection.backendPid()) == null);
        } finally {
            Fixtures.dropSlot(server, "close_slot");
        }
    }

    @Test
    void shouldReportTheServerTerminatingTheWalsender() throws Exception {
        try (ReplicationConnection connection = startStreaming("terminated_slot", "items_pub");
             StreamReader reader = new StreamReader(connection)) {
            await("the reader is blocked in poll", DEADLINE, reader::insidePoll);

            server.execute("SELECT pg_terminate_backend(" + connection.backendPid() + ")");
            Throwable failure = reader.awaitFailure(DEADLINE);

            assertThat(failure).isInstanceOf(ReplicationException.class)
                .hasMessageContaining("127.0.0.1:" + server.port())
                .hasMessageContaining("57P01 terminating connection due to administrator command");
            ReplicationException ended = (ReplicationException) failure;
            assertThat(ended.reason()).isEqualTo(Reason.SERVER_ERROR);
            assertThat(ended.serverError()).get().extracting(ServerError::sqlState).isEqualTo("57P01");
            assertThat(connection.isClosed()).isTrue();
        } finally {
            Fixtures.dropSlot(server, "terminated_slot");
        }
    }

    @Test
    void shouldReportASlotActiveElsewhereAndStayUsable() throws Exception {
        try (ReplicationConnection first = startStreaming("busy_slot", "items_pub");
             ReplicationConnection second = ReplicationConnection.open(endpoint(server, "postgres"))) {
            assertThatThrownBy(() -> second.startLogical("busy_slot", 0L, pgoutputOptions("items_pub")))
                .isInstanceOf(ReplicationException.class)
                .hasMessageContaining("55006")
                .hasMessageContaining("replication slot \"busy_slot\" is active for PID " + first.backendPid())
                .extracting(ex -> ((ReplicationException) ex).reason()).isEqualTo(Reason.SERVER_ERROR);

            assertThat(second.simpleQuery("IDENTIFY_SYSTEM")).hasSize(1);
            assertThatThrownBy(() -> second.simpleQuery("SELECT * FROM no_such_table"))
                .isInstanceOf(ReplicationException.class).hasMessageContaining("42P01");
            assertThat(second.simpleQuery("SELECT 1, NULL").get(0)).containsExactly("1", null);
        } finally {
            Fixtures.dropSlot(server, "busy_slot");
        }
    }

    /**
     * The walsender is stopped (SIGSTOP), as a primary behind a dead link would be: nothing arrives, the ping at half
     * the receive timeout gets no answer, and at the timeout the connection closes and wakes the reader.
     */
    @Test
    void shouldCloseWhenTheServerFallsSilentForTheReceiveTimeout() throws Exception {
        ReplicationEndpoint quickTimeout = endpoint(server, "postgres")
            .withTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofMillis(1500));
        ReplicationConnection connection = startStreaming(quickTimeout, "silent_slot", "items_pub");
        long walsender = connection.backendPid();
        try {
            StreamReader reader = new StreamReader(connection);
            await("the reader is blocked in poll", DEADLINE, reader::insidePoll);
            long sentBefore = connection.statusUpdatesSent();

            signal("STOP", walsender);
            Throwable failure = reader.awaitFailure(DEADLINE);

            assertThat(failure).isInstanceOf(ReplicationException.class)
                .hasMessageContaining("127.0.0.1:" + server.port())
                .hasMessageContaining("no message from the server for")
                .hasMessageContaining("receiveTimeout 1500 ms");
            assertThat(((ReplicationException) failure).reason()).isEqualTo(Reason.TIMEOUT);
            assertThat(connection.statusUpdatesSent()).as("a ping at half the timeout").isGreaterThan(sentBefore);
            assertThat(connection.isClosed()).isTrue();
        } finally {
            signal("CONT", walsender);
            connection.close();
            Fixtures.dropSlot(server, "silent_slot");
        }
    }

    private static ReplicationConnection startStreaming(String slot, String publication) throws ReplicationException {
        return Fixtures.startStreaming(endpoint(server, "postgres"), slot, publication);
    }

    private static ReplicationConnection startStreaming(ReplicationEndpoint endpoint, String slot, String publication)
        throws ReplicationException {
        return Fixtures.startStreaming(endpoint, slot, publication);
    }

    private static void signal(String signal, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
        }
    }
}
