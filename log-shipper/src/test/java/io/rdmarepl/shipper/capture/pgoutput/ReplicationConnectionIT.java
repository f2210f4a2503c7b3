package io.rdmarepl.shipper.capture.pgoutput;

import static io.rdmarepl.shipper.capture.pgoutput.Fixtures.DEADLINE;
import static io.rdmarepl.shipper.capture.pgoutput.Fixtures.await;
import static io.rdmarepl.shipper.capture.pgoutput.Fixtures.endpoint;
import static io.rdmarepl.shipper.capture.pgoutput.Fixtures.pgoutputOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.format.Lsn;
import io.rdmarepl.shipper.capture.pgoutput.ReplicationException.Reason;
import io.rdmarepl.shipper.capture.pgoutput.StreamReader.Received;
import io.rdmarepl.testsupport.PostgresServer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replication connection against a real PostgreSQL 17 ({@code wal_level=logical}) whose defaults for the
 * text formats are all hostile: streaming, status updates from another thread while the reader is blocked,
 * keepalives, the server ending the stream, close().
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ReplicationConnectionIT {
    @TempDir
    static Path directory;
    static PostgresServer server;

    @BeforeAll
    static void startServer() throws Exception {
        Path hba = Fixtures.hbaFile(directory, "host all postgres,shorttimeout 127.0.0.1/32 trust",
            "local all postgres trust");
        server = PostgresServer.builder("replconn")
            .unixSocket()
            .setting("hba_file", hba.toString())
            .setting("DateStyle", "SQL,DMY")
            .setting("IntervalStyle", "sql_standard")
            .setting("extra_float_digits", "0")
            .setting("bytea_output", "escape")
            .setting("TimeZone", "Asia/Kolkata")
            .start();
        server.execute("CREATE TABLE items (id int PRIMARY KEY, note text);"
            + "CREATE PUBLICATION items_pub FOR TABLE items;"
            + "CREATE TABLE fidelity (ts timestamptz, d date, iv interval, f float8, b bytea);"
            + "CREATE PUBLICATION fidelity_pub FOR TABLE fidelity;"
            + "CREATE ROLE shorttimeout LOGIN REPLICATION;"
            + "ALTER ROLE shorttimeout SET wal_sender_timeout = '1s'");
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void shouldStreamATransactionFromBeginToCommitAfterCreatingASlotWithAnExportedSnapshot() throws Exception {
        try (ReplicationConnection connection = ReplicationConnection.open(endpoint(server, "postgres"))) {
            List<String[]> system = connection.simpleQuery("IDENTIFY_SYSTEM");
            assertThat(system).hasSize(1);
            assertThat(system.get(0)).hasSize(4);
            assertThat(system.get(0)[3]).as("dbname").isEqualTo("postgres");
            assertThat(connection.simpleQuery("SHOW server_version_num").get(0)[0]).startsWith("17");

            String[] slot = connection.simpleQuery(
                "CREATE_REPLICATION_SLOT stream_slot LOGICAL pgoutput (SNAPSHOT 'export')").get(0);
            assertThat(slot[0]).isEqualTo("stream_slot");
            assertThat(Lsn.parse(slot[1])).as("consistent_point").isPositive();
            assertThat(slot[2]).as("snapshot_name").isNotBlank();
            assertThat(slot[3]).isEqualTo("pgoutput");
            try (Connection sql = server.connect("postgres"); Statement statement = sql.createStatement()) {
                sql.setAutoCommit(false);
                statement.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
                statement.execute("SET TRANSACTION SNAPSHOT '" + slot[2] + "'");
                sql.commit();
            }

            connection.startLogical("stream_slot", 0L, pgoutputOptions("items_pub"));
            assertThat(connection.isStreaming()).isTrue();
            try (StreamReader reader = new StreamReader(connection)) {
                server.execute("INSERT INTO items VALUES (1, 'first')");

                List<Received> transaction = reader.nextTransaction(DEADLINE);
                assertThat(transaction).extracting(Received::pgoutputType).containsExactly('B', 'R', 'I', 'C');
                Received commit = transaction.get(3);
                long commitEnd = commit.body().getLong(10);
                assertThat(commit.walStart()).as("XLogData walStart of a Commit").isPositive();
                assertThat(Lsn.compare(commitEnd, Lsn.parse(slot[1]))).isPositive();

                assertThat(connection.sendStatus(0, 0, 0, true)).as("a reply request is always sent").isTrue();
                Received keepalive = reader.nextKeepalive(DEADLINE);
                while (Lsn.compare(keepalive.walEnd(), commitEnd) < 0) {
                    keepalive = reader.nextKeepalive(DEADLINE);
                }
                assertThat(Lsn.compare(connection.serverWalEnd(), commitEnd)).isGreaterThanOrEqualTo(0);
            }
        } finally {
            Fixtures.dropSlot(server, "stream_slot");
        }
    }

    /**
     * {@code capture.receive.buffer.bytes} reaches the TCP socket before it connects (a window the walsender can fill;
     * Linux reports the size doubled), and 0 leaves the kernel's.
     */
    @Test
    void shouldAskTheKernelForTheConfiguredReceiveBuffer() throws Exception {
        WireSession autotuned = WireSession.open(endpoint(server, "postgres"));
        try {
            WireSession small = WireSession.open(endpoint(server, "postgres").withReceiveBuffer(16 * 1024));
            try {
                assertThat(small.tcp().getReceiveBufferSize()).isLessThanOrEqualTo(2 * 16 * 1024)
                    .isLessThan(autotuned.tcp().getReceiveBufferSize());
            } finally {
                small.tcp().close();
            }
        } finally {
            autotuned.tcp().close();
        }
    }

    /** A host that is a directory is the server's Unix-domain socket there, as libpq reads it. */
    @Test
    void shouldStreamOverTheServersUnixSocketWhenTheHostIsADirectory() throws Exception {
        ReplicationEndpoint overSocket = ReplicationEndpoint.of(server.socketDirectory().toString(), server.port(), "postgres",
            "postgres").withSsl(SslMode.DISABLE, null);
        try (ReplicationConnection connection = startStreaming(overSocket, "socket_slot", "items_pub");
             StreamReader reader = new StreamReader(connection)) {
            server.execute("INSERT INTO items VALUES (7, 'over the socket')");
            List<Received> transaction = reader.nextTransaction(DEADLINE);
            assertThat(transaction).extracting(Received::pgoutputType).containsExactly('B', 'R', 'I', 'C');
            assertThat(textValues(transaction.get(2).body())).containsExactly("7", "over the socket");
            try (Connection sql = server.connect("postgres"); Statement statement = sql.createStatement();
                 java.sql.ResultSet rows = statement.executeQuery(
                     "SELECT client_addr IS NULL, client_port FROM pg_stat_replication WHERE application_name = '"
                         + overSocket.applicationName() + "'")) {
                assertThat(rows.next()).as("the replication connection is listed").isTrue();
                assertThat(rows.getBoolean(1)).as("no client address: a Unix-domain socket").isTrue();
                assertThat(rows.getInt(2)).as("client_port -1: a Unix-domain socket").isEqualTo(-1);
            }
        } finally {
            Fixtures.dropSlot(server, "socket_slot");
        }
    }

    @Test
    void shouldNameTheSocketFileWhenNoServerListensThere() {
        ReplicationEndpoint nowhere = ReplicationEndpoint.of(directory.toString(), 5999, "postgres", "postgres")
            .withSsl(SslMode.DISABLE, null);
        assertThatThrownBy(() -> ReplicationConnection.open(nowhere))
            .isInstanceOf(ReplicationException.class)
            .hasMessageContaining(directory.resolve(".s.PGSQL.5999").toString())
            .hasMessageContaining("no such socket file");
    }

    /**
     * The status update leaves while the reader is blocked, nothing received in between: with pgjdbc's API it would
     * wait for the server's next message. A message may legitimately arrive during the send (a keepalive); that
     * attempt then proves nothing, and the next one, with a higher position, is taken. Over TCP and over the server's
     * Unix-domain socket, whose reader waits on a selector while the writer writes.
     */
    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"tcp", "unix socket"})
    void shouldMoveConfirmedFlushFromAnotherThreadWhileTheReaderIsBlocked(String transport) throws Exception {
        try (ReplicationConnection connection = startStreaming(endpointOver(transport), "status_slot", "items_pub");
             StreamReader reader = new StreamReader(connection)) {
            server.execute("INSERT INTO items VALUES (" + (transport.equals("tcp") ? 2 : 12) + ", 'acknowledged')");
            long commitEnd = reader.nextTransaction(DEADLINE).get(3).body().getLong(10);

            int cleanAttempts = 0;
            for (int attempt = 0; attempt < 5 && cleanAttempts == 0; attempt++) {
                long position = commitEnd - 4 + attempt;
                await("the reader is blocked in poll", DEADLINE, reader::insidePoll);
                long receivedBefore = connection.messagesReceived();

                assertThat(connection.sendStatus(position, position, position, false)).isTrue();

                boolean nothingArrived = connection.messagesReceived() == receivedBefore && reader.insidePoll();
                Fixtures.awaitConfirmedFlush(server, "status_slot", position, DEADLINE);
                assertThat(connection.sentFlushedLsn()).isEqualTo(position);
                cleanAttempts += nothingArrived ? 1 : 0;
            }
            assertThat(cleanAttempts).as("a status update sent while the reader received nothing").isEqualTo(1);
            assertThat(reader.failure()).isNull();
        } finally {
            Fixtures.dropSlot(server, "status_slot");
        }
    }

    @Test
    void shouldNeverSendAPositionLowerThanBefore() throws Exception {
        try (ReplicationConnection connection = startStreaming("monotonic_slot", "items_pub");
             StreamReader reader = new StreamReader(connection)) {
            server.execute("INSERT INTO items VALUES (3, 'monotonic')");
            long commitEnd = reader.nextTransaction(DEADLINE).get(3).body().getLong(10);
            connection.sendStatus(commitEnd, commitEnd, commitEnd, false);
            Fixtures.awaitConfirmedFlush(server, "monotonic_slot", commitEnd, DEADLINE);

            assertThat(connection.sendStatus(commitEnd - 100, commitEnd - 100, commitEnd - 100, false)).isFalse();
            connection.sendStatus(commitEnd - 100, commitEnd - 100, commitEnd - 100, true);
            reader.nextKeepalive(DEADLINE);

            assertThat(Fixtures.confirmedFlush(server, "monotonic_slot")).isEqualTo(commitEnd);
            assertThat(connection.sentFlushedLsn()).isEqualTo(commitEnd);
        } finally {
            Fixtures.dropSlot(server, "monotonic_slot");
        }
    }

    @Test
    void shouldSendStatusPeriodicallyWhenNothingIsAcknowledged() throws Exception {
        ReplicationEndpoint quickStatus = endpoint(server, "postgres")
            .withTimeouts(Duration.ofSeconds(10), Duration.ofMillis(200), Duration.ofSeconds(60));
        try (ReplicationConnection connection = startStreaming(quickStatus, "periodic_slot", "items_pub");
             StreamReader reader = new StreamReader(connection)) {
            String query = "SELECT reply_time::text FROM pg_stat_replication WHERE pid = ?";
            await("a first status update", DEADLINE, () -> Fixtures.queryOne(server, query, connection.backendPid()) != null);
            String first = Fixtures.queryOne(server, query, connection.backendPid());
            await("reply_time moves without any acknowledgement", DEADLINE,
                () -> !first.equals(Fixtures.queryOne(server, query, connection.backendPid())));
            long sent = connection.statusUpdatesSent();
            await("more periodic updates", DEADLINE, () -> connection.statusUpdatesSent() >= sent + 2);
            assertThat(reader.failure()).isNull();
        } finally {
            Fixtures.dropSlot(server, "periodic_slot");
        }
    }

    /**
     * wal_sender_timeout is 1 s for this role, and the periodic status is off (1 h): only the answers to the keepalives
     * that ask for one keep the walsender from timing the connection out. Three such keepalives span more than 1 s.
     */
    @Test
    void shouldAnswerKeepalivesThatAskForAReply() throws Exception {
        ReplicationEndpoint shortTimeout = endpoint(server, "shorttimeout")
            .withTimeouts(Duration.ofSeconds(10), Duration.ofHours(1), Duration.ZERO);
        try (ReplicationConnection connection = ReplicationConnection.open(shortTimeout)) {
            assertThat(connection.simpleQuery("SHOW wal_sender_timeout").get(0)[0]).isEqualTo("1s");
            connection.simpleQuery("CREATE_REPLICATION_SLOT keepalive_slot LOGICAL pgoutput (SNAPSHOT 'nothing')");
            connection.startLogical("keepalive_slot", 0L, pgoutputOptions("items_pub"));
            try (StreamReader reader = new StreamReader(connection)) {
                long start = System.nanoTime();
                int requests = 0;
                while (requests < 3) {
                    requests += reader.nextKeepalive(DEADLINE).replyRequested() ? 1 : 0;
                }
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThan(1000);
                assertThat(reader.failure()).isNull();
                assertThat(connection.isClosed()).isFalse();
            }
        } finally {
            Fixtures.dropSlot(server, "keepalive_slot");
        }
    }

    @Test
    void shouldRefuseTlsRequiredFromAServerWithoutIt() {
        ReplicationEndpoint tls = endpoint(server, "postgres").withSsl(SslMode.REQUIRE, null);

        assertThatThrownBy(() -> ReplicationConnection.open(tls))
            .isInstanceOf(ReplicationException.class)
            .hasMessageContaining("does not accept TLS")
            .extracting(ex -> ((ReplicationException) ex).reason()).isEqualTo(Reason.TLS);
        ReplicationEndpoint prefer = endpoint(server, "postgres").withSsl(SslMode.PREFER, null);
        try (ReplicationConnection plain = ReplicationConnection.open(prefer)) {
            assertThat(plain.simpleQuery("SELECT 1").get(0)[0]).isEqualTo("1");
        } catch (ReplicationException ex) {
            throw new AssertionError("prefer falls back to plain text", ex);
        }
    }

    /**
     * The server's defaults are SQL dates, sql_standard intervals, 15-digit floats, escaped bytea and Asia/Kolkata;
     * the walsender session has the fixed settings, and pgoutput's text values show it.
     */
    @Test
    void shouldPinTheWalsenderSessionToFixedTextFormats() throws Exception {
        assertThat(server.show("IntervalStyle")).as("the server's own default").isEqualTo("sql_standard");
        assertThat(server.show("bytea_output")).as("the server's own default").isEqualTo("escape");
        try (ReplicationConnection connection = ReplicationConnection.open(endpoint(server, "postgres")
            .withApplicationName("pinned_standby"))) {
            assertThat(show(connection, "DateStyle")).isEqualTo("ISO, DMY");
            assertThat(show(connection, "IntervalStyle")).isEqualTo("postgres");
            assertThat(show(connection, "extra_float_digits")).isEqualTo("3");
            assertThat(show(connection, "bytea_output")).isEqualTo("hex");
            assertThat(show(connection, "TimeZone")).isEqualTo("UTC");
            assertThat(show(connection, "client_encoding")).isEqualTo("UTF8");
            assertThat(show(connection, "application_name")).isEqualTo("pinned_standby");
            assertThat(connection.serverParameter("DateStyle")).isEqualTo("ISO, DMY");

            connection.simpleQuery("CREATE_REPLICATION_SLOT fidelity_slot LOGICAL pgoutput (SNAPSHOT 'nothing')");
            connection.startLogical("fidelity_slot", 0L, pgoutputOptions("fidelity_pub"));
            try (StreamReader reader = new StreamReader(connection)) {
                server.execute("INSERT INTO fidelity VALUES ('2024-01-02 03:04:05.123456+00', '2024-01-02', "
                    + "'1 day 2 hours', 1.0::float8 / 3, '\\x0102'::bytea)");
                Received insert = reader.nextTransaction(DEADLINE).get(2);

                assertThat(insert.pgoutputType()).isEqualTo('I');
                assertThat(textValues(insert.body())).containsExactly("2024-01-02 03:04:05.123456+00", "2024-01-02",
                    "1 day 02:00:00", "0.3333333333333333", "\\x0102");
            }
        } finally {
            Fixtures.dropSlot(server, "fidelity_slot");
        }
    }

    /**
     * The reading thread allocates nothing per message once warm: its allocation counter
     * (com.sun.management.ThreadMXBean) is read at the 1,000th and the 2,500th commit of 3,000 one-row transactions
     * (4,500 XLogData messages and the keepalives between them). Measured: 0 bytes in most runs, about 2 KB once in
     * a while (a deoptimization, not per message).
     */
    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"tcp", "unix socket"})
    void shouldNotAllocateOnTheReadPathInSteadyState(String transport) throws Exception {
        try (ReplicationConnection connection = startStreaming(endpointOver(transport), "allocation_slot", "items_pub")) {
            AllocationProbe probe = new AllocationProbe(1_000, 1_500);
            Thread thread = new Thread(() -> {
                try {
                    while (!probe.done()) {
                        connection.poll(probe);
                    }
                } catch (ReplicationException ex) {
                    probe.failure = ex;
                }
            }, "test-allocation-reader");
            thread.start();
            server.execute("DO $$ BEGIN FOR i IN 1..3000 LOOP "
                + "INSERT INTO items VALUES (" + (transport.equals("tcp") ? 100_000 : 200_000) + " + i, 'n'); COMMIT; END LOOP; END $$");
            thread.join(TimeUnit.SECONDS.toMillis(60));

            assertThat(probe.failure).isNull();
            assertThat(probe.done()).as("3,000 transactions read").isTrue();
            System.out.printf("reading thread allocated %d bytes over %d messages (%.3f bytes/message)%n",
                probe.allocatedBytes(), probe.messages(), (double) probe.allocatedBytes() / probe.messages());
            assertThat(probe.messages()).isGreaterThanOrEqualTo(4_500);
            // one allocation per message (16 bytes at least) would be 72 KB; a JIT deoptimization now and then
            // materializes a few objects once (about 2 KB seen)
            assertThat(probe.allocatedBytes()).as("bytes allocated over %d messages", probe.messages())
                .isLessThan(16 * 1024);
        } finally {
            Fixtures.dropSlot(server, "allocation_slot");
        }
    }

    private static ReplicationEndpoint endpointOver(String transport) {
        return transport.equals("tcp") ? endpoint(server, "postgres")
            : ReplicationEndpoint.of(server.socketDirectory().toString(), server.port(), "postgres", "postgres")
                .withSsl(SslMode.DISABLE, null);
    }

    private static ReplicationConnection startStreaming(String slot, String publication) throws ReplicationException {
        return Fixtures.startStreaming(endpoint(server, "postgres"), slot, publication);
    }

    private static ReplicationConnection startStreaming(ReplicationEndpoint endpoint, String slot, String publication)
        throws ReplicationException {
        return Fixtures.startStreaming(endpoint, slot, publication);
    }

    private static String show(ReplicationConnection connection, String setting) throws ReplicationException {
        return connection.simpleQuery("SHOW " + setting).get(0)[0];
    }

    /** pgoutput Insert: 'I', relation oid int32, 'N', int16 columns, per column 't' int32 length bytes (or 'n', 'u'). */
    private static List<String> textValues(ByteBuffer insert) {
        int position = 1 + Integer.BYTES;
        assertThat(insert.get(position)).isEqualTo((byte) 'N');
        int columns = insert.getShort(position + 1);
        position += 1 + Short.BYTES;
        List<String> values = new ArrayList<>();
        for (int column = 0; column < columns; column++) {
            byte kind = insert.get(position++);
            assertThat(kind).as("column %d is sent as text", column).isEqualTo((byte) 't');
            int length = insert.getInt(position);
            position += Integer.BYTES;
            values.add(new String(insert.array(), position, length, StandardCharsets.UTF_8));
            position += length;
        }
        return values;
    }
}
