package io.rdmarepl.shipper.capture.pgoutput;

import static io.rdmarepl.shipper.capture.pgoutput.Fixtures.DEADLINE;
import static io.rdmarepl.shipper.capture.pgoutput.Fixtures.await;
import static io.rdmarepl.shipper.capture.pgoutput.Fixtures.endpoint;
import static io.rdmarepl.shipper.capture.pgoutput.Fixtures.pgoutputOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.shipper.capture.pgoutput.ReplicationException.Reason;
import io.rdmarepl.testsupport.PostgresServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS to a server with {@code ssl = on} and only {@code hostssl} rules, its certificate signed by an authority made
 * in the test for the address 127.0.0.1 only.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ReplicationConnectionTlsIT {
    @TempDir
    static Path directory;
    static PostgresServer server;
    static TestCertificates certificates;

    @BeforeAll
    static void startServer() throws Exception {
        certificates = TestCertificates.create(directory);
        Path hba = Fixtures.hbaFile(directory,
            "hostssl all scramuser 127.0.0.1/32 scram-sha-256",
            "hostssl all all 127.0.0.1/32 trust");
        server = PostgresServer.builder("repltls")
            .setting("hba_file", hba.toString())
            .setting("ssl", "on")
            .setting("ssl_cert_file", certificates.serverCert().toString())
            .setting("ssl_key_file", certificates.serverKey().toString())
            .start();
        server.execute("CREATE ROLE scramuser LOGIN REPLICATION PASSWORD 'scram secret';"
            + "CREATE TABLE items (id int PRIMARY KEY);"
            + "CREATE PUBLICATION items_pub FOR TABLE items");
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void shouldEncryptWithSslmodeRequire() throws Exception {
        assertEncrypted(endpoint(server, "postgres").withSsl(SslMode.REQUIRE, null));
    }

    @Test
    void shouldEncryptWithSslmodePrefer() throws Exception {
        assertEncrypted(endpoint(server, "postgres").withSsl(SslMode.PREFER, null));
    }

    @Test
    void shouldVerifyTheChainWithSslmodeVerifyCa() throws Exception {
        assertEncrypted(endpoint(server, "postgres").withSsl(SslMode.VERIFY_CA, certificates.rootCert()));
    }

    @Test
    void shouldVerifyTheChainAndTheAddressWithSslmodeVerifyFull() throws Exception {
        assertEncrypted(endpoint(server, "postgres").withSsl(SslMode.VERIFY_FULL, certificates.rootCert()));
    }

    @Test
    void shouldAcceptAnotherHostNameWithVerifyCaButNotWithVerifyFull() throws Exception {
        ReplicationEndpoint localhost = ReplicationEndpoint.of("localhost", server.port(), "postgres", "postgres");

        assertEncrypted(localhost.withSsl(SslMode.VERIFY_CA, certificates.rootCert()));
        assertThatThrownBy(() -> ReplicationConnection.open(localhost.withSsl(SslMode.VERIFY_FULL, certificates.rootCert())))
            .isInstanceOf(ReplicationException.class)
            .hasMessageContaining("localhost:" + server.port())
            .hasMessageContaining("TLS handshake failed (sslmode verify-full")
            .hasMessageContaining("localhost")
            .satisfies(ex -> assertThat(((ReplicationException) ex).reason()).isEqualTo(Reason.TLS));
    }

    @Test
    void shouldRefuseACertificateFromAnotherAuthority() throws Exception {
        Path unrelated = TestCertificates.unrelatedRoot(directory);

        assertThatThrownBy(() -> ReplicationConnection.open(endpoint(server, "postgres").withSsl(SslMode.VERIFY_CA, unrelated)))
            .isInstanceOf(ReplicationException.class)
            .hasMessageContaining("TLS handshake failed (sslmode verify-ca, sslrootcert " + unrelated)
            .satisfies(ex -> assertThat(((ReplicationException) ex).reason()).isEqualTo(Reason.TLS));
        assertThatThrownBy(() -> ReplicationConnection.open(endpoint(server, "postgres").withSsl(SslMode.REQUIRE, unrelated)))
            .as("require with a root certificate verifies the chain, as libpq")
            .isInstanceOf(ReplicationException.class).hasMessageContaining("TLS handshake failed");
    }

    @Test
    void shouldPassOnTheServersRefusalOfAPlainConnection() {
        assertThatThrownBy(() -> ReplicationConnection.open(endpoint(server, "postgres")))
            .isInstanceOf(ReplicationException.class)
            .hasMessageContaining("127.0.0.1:" + server.port() + " (user postgres, database postgres)")
            .hasMessageContaining("28000 no pg_hba.conf entry for host \"127.0.0.1\", user \"postgres\", database \"postgres\", no encryption")
            .satisfies(ex -> assertThat(((ReplicationException) ex).reason()).isEqualTo(Reason.AUTHENTICATION));
    }

    /** Over TLS the server offers SCRAM-SHA-256-PLUS too; the client takes SCRAM-SHA-256, without channel binding. */
    @Test
    void shouldAuthenticateWithScramOverTls() throws Exception {
        assertEncrypted(endpoint(server, "scramuser").withPassword("scram secret").withSsl(SslMode.VERIFY_FULL, certificates.rootCert()));
    }

    /** Reading and writing the same TLS socket from two threads: a status update while the reader is blocked. */
    @Test
    void shouldSendStatusFromAnotherThreadAndCloseWhileTheReaderIsBlockedOverTls() throws Exception {
        ReplicationConnection connection = ReplicationConnection.open(
            endpoint(server, "postgres").withSsl(SslMode.VERIFY_FULL, certificates.rootCert()));
        try {
            connection.simpleQuery("CREATE_REPLICATION_SLOT tls_slot LOGICAL pgoutput (SNAPSHOT 'nothing')");
            connection.startLogical("tls_slot", 0L, pgoutputOptions("items_pub"));
            StreamReader reader = new StreamReader(connection);
            server.execute("INSERT INTO items VALUES (1)");
            long commitEnd = reader.nextTransaction(DEADLINE).get(3).body().getLong(10);
            await("the reader is blocked in poll", DEADLINE, reader::insidePoll);

            connection.sendStatus(commitEnd, commitEnd, commitEnd, false);
            Fixtures.awaitConfirmedFlush(server, "tls_slot", commitEnd, DEADLINE);

            await("the reader is blocked in poll", DEADLINE, reader::insidePoll);
            connection.close();
            assertThat(reader.awaitFailure(Duration.ofSeconds(10)))
                .isInstanceOf(ReplicationException.class).hasMessageContaining("closed by close()");
        } finally {
            connection.close();
            Fixtures.dropSlot(server, "tls_slot");
        }
    }

    /**
     * A backlog over TLS with the backlog pacing on: a read takes one TLS record (the walsender writes one per message),
     * so the pacing counts what waits in the socket under the TLS stream and reads a bite record by record. Waiting
     * before every record instead read some 70 transactions a second: these 5,000 would take over a minute.
     */
    @Test
    void shouldReadABacklogOverTlsWithThePacingOn() throws Exception {
        ReplicationEndpoint tls = endpoint(server, "postgres").withSsl(SslMode.REQUIRE, null);
        server.execute("CREATE TABLE backlog (id int PRIMARY KEY); CREATE PUBLICATION backlog_pub FOR TABLE backlog");
        try (ReplicationConnection connection = ReplicationConnection.open(tls)) {
            connection.simpleQuery("CREATE_REPLICATION_SLOT backlog_slot LOGICAL pgoutput (SNAPSHOT 'nothing')");
        }
        int transactions = 5_000;
        server.execute("DO $$ BEGIN FOR i IN 1.." + transactions + " LOOP INSERT INTO backlog VALUES (i); COMMIT; END LOOP; END $$");
        ReplicationConnection connection = ReplicationConnection.open(tls);
        try {
            connection.startLogical("backlog_slot", 0L, pgoutputOptions("backlog_pub"));
            connection.paceReadsBy(() -> BackendReader.BACKLOG_US + 1); // late all along: every read is paced
            try (StreamReader reader = new StreamReader(connection)) {
                long deadlineNs = System.nanoTime() + DEADLINE.toNanos();
                for (int commits = 0; commits < transactions; ) {
                    if (reader.nextXLogData(Duration.ofNanos(Math.max(1, deadlineNs - System.nanoTime()))).pgoutputType() == 'C') {
                        commits++;
                    }
                }
            }
        } finally {
            connection.close();
            Fixtures.dropSlot(server, "backlog_slot");
        }
    }

    /**
     * The liveness ping reads its answers without blocking: under TLS they wait as encrypted bytes in the kernel's
     * buffer, not as decrypted ones, and must still count as answered. The server runs hostssl rules only.
     */
    @Test
    void shouldPingAPlainSessionOverTls() throws Exception {
        try (PrimaryPing ping = PrimaryPing.open(endpoint(server, "postgres").withSsl(SslMode.REQUIRE, null), "ping-tls-it",
            Duration.ofSeconds(5))) {
            assertThat(ping.postmasterStart()).isBefore(java.time.Instant.now());
            assertThat(ping.collectAndSend(System.nanoTime())).as("none in flight yet").isTrue();
            for (int answered = 0; answered < 5; answered++) {
                assertThat(ping.inFlightSinceNs()).isNotZero();
                await("Sync " + answered + " answered over TLS", DEADLINE, () -> ping.collectAndSend(System.nanoTime()));
            }
            try (java.sql.Connection sql = server.connect("postgres");
                 java.sql.ResultSet rs = sql.createStatement().executeQuery("SELECT s.ssl FROM pg_stat_ssl s"
                     + " JOIN pg_stat_activity a USING (pid) WHERE a.application_name = 'ping-tls-it'")) {
                assertThat(rs.next()).as("the ping's session").isTrue();
                assertThat(rs.getBoolean(1)).as("encrypted").isTrue();
            }
        }
    }

    private static void assertEncrypted(ReplicationEndpoint endpoint) throws ReplicationException {
        try (ReplicationConnection connection = ReplicationConnection.open(endpoint)) {
            String[] ssl = connection.simpleQuery("SELECT ssl::text, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()").get(0);
            assertThat(ssl[0]).as("pg_stat_ssl.ssl").isEqualTo("true");
            assertThat(ssl[1]).startsWith("TLSv1.");
            assertThat(connection.simpleQuery("SELECT current_user").get(0)[0]).isEqualTo(endpoint.user());
        }
    }
}
