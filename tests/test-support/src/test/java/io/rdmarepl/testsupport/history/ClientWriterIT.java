package io.rdmarepl.testsupport.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.sql.Connection;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The history a {@link ClientWriter} keeps is what the server holds: every acknowledged id there, named by the server
 * that acknowledged it; and an insisting client is the one a fence must end (a setting alone does not stop it).
 */
@Timeout(60)
class ClientWriterIT {
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static PostgresServer server;

    @BeforeAll
    static void start() {
        server = PostgresServer.primary(Durability.FAST);
        server.execute(ClientWriter.SCHEMA);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void shouldRecordEveryAcknowledgedWriteAndWhoAcknowledgedIt() throws Exception {
        WriteHistory history = new WriteHistory();
        try (ClientWriter writer = ClientWriter.to(work -> {
            try (Connection connection = server.connect("postgres")) {
                return work.run(connection);
            }
        }).history(history).writers(2).start()) {
            writer.awaitMore(100, DEADLINE);
            writer.close();
            assertThat(writer.failures()).as("last failure: %s", writer.lastFailure()).isZero();
            assertThat(writer.inFlight()).isZero();
            assertThat(history.size()).isEqualTo(writer.acknowledged());
        }
        assertThat(history.acks()).allSatisfy(ack -> {
            assertThat(ack.member()).isEqualTo(ClientWriter.member(server)).isEqualTo(server.host() + ":" + server.port());
            assertThat(ack.acknowledgedNs()).isGreaterThanOrEqualTo(ack.invokedNs());
        });
        assertThat(HistoryCheck.lost(history.ids(), ClientWriter.ids(server))).as("acknowledged, not on the server").isEmpty();
        assertThat(history.ids()).as("every id written once").hasSize(history.size());
    }

    @Test
    void shouldKeepWritingThroughAReadOnlySettingUntilItsSessionIsEnded() throws Exception {
        server.execute("ALTER SYSTEM SET default_transaction_read_only = on");
        server.execute("SELECT pg_reload_conf()");
        try {
            Await.until("new sessions read-only", DEADLINE, () -> "on".equals(server.show("default_transaction_read_only")));
            try (ClientWriter insisting = ClientWriter.insistingOn(server).start();
                 ClientWriter plain = ClientWriter.sessionPerWrite(server).interval(Duration.ofMillis(10)).start()) {
                insisting.awaitMore(20, DEADLINE);
                assertThat(insisting.sessionsOpened()).isEqualTo(1);
                Await.until("a plain session refused a write", DEADLINE, () -> plain.failures() > 0);
                assertThat(plain.acknowledged()).as("a new session starts read-only").isZero();

                server.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid()"
                        + " AND backend_type = 'client backend' AND datname = 'postgres'");
                Await.until("the insisting client in a new session", DEADLINE, () -> insisting.sessionsOpened() > 1);
                long acknowledged = insisting.acknowledged();
                long failures = insisting.failures();
                Await.until("its new session refused a write", DEADLINE, () -> insisting.failures() > failures);
                assertThat(insisting.acknowledged()).as("nothing acknowledged once its session was ended").isEqualTo(acknowledged);
            }
        } finally {
            server.execute("ALTER SYSTEM RESET default_transaction_read_only");
            server.execute("SELECT pg_reload_conf()");
        }
    }
}
