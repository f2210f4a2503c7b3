package io.rdmarepl.shipper.capture.pgoutput;

import static io.rdmarepl.shipper.capture.pgoutput.Fixtures.endpoint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.shipper.capture.pgoutput.ReplicationException.Reason;
import io.rdmarepl.testsupport.PostgresServer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Authentication of the replication connection against a real server: one role per method in pg_hba.conf
 * (password, md5 with an md5-hashed password, scram-sha-256), and the errors users meet.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ReplicationConnectionAuthIT {
    /** A password that SASLprep changes: decomposed here, composed (NFC) in CREATE ROLE. */
    private static final String DECOMPOSED_PASSWORD = "pa\u0308sswo\u0308rd";

    @TempDir
    static Path directory;
    static PostgresServer server;

    @BeforeAll
    static void startServer() throws Exception {
        Path hba = Fixtures.hbaFile(directory,
            "host all md5user 127.0.0.1/32 md5",
            "host all scramuser,unicodeuser 127.0.0.1/32 scram-sha-256",
            "host all pwuser 127.0.0.1/32 password",
            "host all postgres 127.0.0.1/32 trust");
        server = PostgresServer.builder("replauth").setting("hba_file", hba.toString()).start();
        server.execute("SET password_encryption = 'md5';"
            + "CREATE ROLE md5user LOGIN REPLICATION PASSWORD 'md5 secret';"
            + "SET password_encryption = 'scram-sha-256';"
            + "CREATE ROLE scramuser LOGIN REPLICATION PASSWORD 'scram secret';"
            + "CREATE ROLE unicodeuser LOGIN REPLICATION PASSWORD 'p\u00E4ssw\u00F6rd';"
            + "CREATE ROLE pwuser LOGIN REPLICATION PASSWORD 'clear secret';"
            + "CREATE ROLE nobody LOGIN REPLICATION PASSWORD 'whatever'");
        assertThat(Fixtures.queryOne(server, "SELECT rolpassword FROM pg_authid WHERE rolname = 'md5user'")).startsWith("md5");
        assertThat(Fixtures.queryOne(server, "SELECT rolpassword FROM pg_authid WHERE rolname = 'scramuser'"))
            .startsWith("SCRAM-SHA-256$");
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void shouldAuthenticateWithMd5() throws Exception {
        assertAuthenticates(endpoint(server, "md5user").withPassword("md5 secret"));
    }

    @Test
    void shouldAuthenticateWithScramSha256() throws Exception {
        assertAuthenticates(endpoint(server, "scramuser").withPassword("scram secret"));
    }

    @Test
    void shouldPrepareANonAsciiPasswordAsTheServerDid() throws Exception {
        assertAuthenticates(endpoint(server, "unicodeuser").withPassword(DECOMPOSED_PASSWORD));
    }

    @Test
    void shouldAuthenticateWithACleartextPassword() throws Exception {
        assertAuthenticates(endpoint(server, "pwuser").withPassword("clear secret"));
    }

    @Test
    void shouldNameUserDatabaseAndTheServersMessageForAWrongScramPassword() {
        assertRefused(endpoint(server, "scramuser").withPassword("wrong"), Reason.AUTHENTICATION)
            .hasMessageContaining("user scramuser, database postgres")
            .hasMessageContaining("SCRAM-SHA-256")
            .hasMessageContaining("FATAL 28P01 password authentication failed for user \"scramuser\"");
    }

    @Test
    void shouldNameUserDatabaseAndTheServersMessageForAWrongMd5Password() {
        assertRefused(endpoint(server, "md5user").withPassword("wrong"), Reason.AUTHENTICATION)
            .hasMessageContaining("user md5user, database postgres")
            .hasMessageContaining("FATAL 28P01 password authentication failed for user \"md5user\"");
    }

    @Test
    void shouldSayNoPasswordIsConfiguredWhenTheServerAsksForOne() {
        assertRefused(endpoint(server, "scramuser"), Reason.AUTHENTICATION)
            .hasMessageContaining("asks for a password (SCRAM-SHA-256) but none is configured");
    }

    @Test
    void shouldPassOnTheServersMessageWhenNoHbaRuleMatches() {
        assertRefused(endpoint(server, "nobody").withPassword("whatever"), Reason.AUTHENTICATION)
            .hasMessageContaining("user nobody, database postgres")
            .hasMessageContaining("28000 no pg_hba.conf entry for host \"127.0.0.1\", user \"nobody\", database \"postgres\"");
    }

    @Test
    void shouldPassOnTheServersMessageForAnUnknownDatabase() {
        ReplicationEndpoint unknown = ReplicationEndpoint.of(PostgresServer.HOST, server.port(), "nosuchdb", "postgres")
            .withSsl(SslMode.DISABLE, null);

        assertRefused(unknown, Reason.SERVER_ERROR)
            .hasMessageContaining("user postgres, database nosuchdb")
            .hasMessageContaining("3D000 database \"nosuchdb\" does not exist");
    }

    @Test
    void shouldSayWhenNothingListensOnThePort() throws Exception {
        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        ReplicationEndpoint nowhere = ReplicationEndpoint.of(PostgresServer.HOST, closedPort, "postgres", "postgres");

        assertRefused(nowhere, Reason.NETWORK).hasMessageContaining("127.0.0.1:" + closedPort).hasMessageContaining("cannot connect");
    }

    private static void assertAuthenticates(ReplicationEndpoint endpoint) throws ReplicationException {
        try (ReplicationConnection connection = ReplicationConnection.open(endpoint)) {
            assertThat(connection.simpleQuery("SELECT current_user").get(0)[0]).isEqualTo(endpoint.user());
            assertThat(connection.simpleQuery("IDENTIFY_SYSTEM")).hasSize(1);
        }
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> assertRefused(ReplicationEndpoint endpoint, Reason reason) {
        return assertThatThrownBy(() -> ReplicationConnection.open(endpoint).close())
            .isInstanceOf(ReplicationException.class)
            .satisfies(ex -> assertThat(((ReplicationException) ex).reason()).isEqualTo(reason))
            .hasMessageContaining(PostgresServer.HOST + ":" + endpoint.port());
    }
}
