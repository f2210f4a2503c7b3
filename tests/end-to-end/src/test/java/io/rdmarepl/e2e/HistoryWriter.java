package io.rdmarepl.e2e;

import io.rdmarepl.client.FailoverDataSource;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.history.WriteHistory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * A client writing one row per transaction into {@code client_writes} and recording every acknowledged write in a
 * {@link WriteHistory}: the member that acknowledged it (the server's own {@code inet_server_addr()}), when it was sent
 * and when its commit returned. {@link #following}: an application on the failover-aware DataSource, which follows the
 * coordinator's topology. {@link #insistingOn}: a client that reached one server and stays there, in a session that
 * turned {@code default_transaction_read_only} off (the hardest case for a fence), reconnecting when it is ended.
 */
final class HistoryWriter implements AutoCloseable {
    /** Shared by every writer of the JVM: ids are unique across trials. */
    private static final AtomicLong NEXT_ID = new AtomicLong(1);
    private static final String WRITE = "WITH w AS (INSERT INTO client_writes (id) VALUES (?) ON CONFLICT (id) DO NOTHING RETURNING 1)"
            + " SELECT host(inet_server_addr())";

    @FunctionalInterface
    private interface Attempt {
        /** Writes {@code id}; returns the address of the server that committed it. */
        String write(long id) throws SQLException;
    }

    private final String name;
    private final WriteHistory history;
    private final UnaryOperator<String> memberOf;
    private final Attempt attempt;
    private final Thread thread;
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private volatile boolean running = true;
    private volatile String lastFailure;
    private Runnable onClose = () -> { };

    private HistoryWriter(String name, WriteHistory history, UnaryOperator<String> memberOf, Attempt attempt) {
        this.name = name;
        this.history = history;
        this.memberOf = memberOf;
        this.attempt = attempt;
        this.thread = new Thread(this::run, "e2e-history-writer-" + name);
        thread.setDaemon(true);
    }

    static HistoryWriter following(FailoverDataSource dataSource, WriteHistory history, UnaryOperator<String> memberOf) {
        HistoryWriter writer = new HistoryWriter("application", history, memberOf, id -> dataSource.inTransaction(c -> write(c, id),
                Duration.ofMillis(200)));
        writer.thread.start();
        return writer;
    }

    static HistoryWriter insistingOn(PostgresServer server, WriteHistory history, UnaryOperator<String> memberOf) {
        Insisting session = new Insisting(server);
        HistoryWriter writer = new HistoryWriter("insisting-" + server.host(), history, memberOf, session::write);
        writer.onClose = session::close;
        writer.thread.start();
        return writer;
    }

    private void run() {
        while (running) {
            long id = NEXT_ID.getAndIncrement();
            long invokedNs = System.nanoTime();
            try {
                String address = attempt.write(id);
                history.acknowledged(id, memberOf.apply(address), invokedNs, System.nanoTime());
                acknowledged.incrementAndGet();
            } catch (SQLException e) {
                failures.incrementAndGet();
                lastFailure = e.getMessage();
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    long acknowledged() {
        return acknowledged.get();
    }

    long failures() {
        return failures.get();
    }

    /** Waits until this writer had {@code more} further writes acknowledged. */
    void awaitMore(long more, Duration timeout) {
        long target = acknowledged() + more;
        Await.until(name + " has " + target + " writes acknowledged (last failure: " + lastFailure + ")", timeout,
                this::acknowledged, n -> n >= target);
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(10_000);
        onClose.run();
    }

    @Override
    public String toString() {
        return name + ": " + acknowledged() + " acknowledged, " + failures() + " failed attempts, last failure: " + lastFailure;
    }

    private static String write(Connection connection, long id) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(WRITE)) {
            insert.setLong(1, id);
            try (ResultSet rs = insert.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    /** One kept session on one server that turned read-only off; a new one (plain) once it was ended. */
    private static final class Insisting {
        private final PostgresServer server;
        private Connection session;
        private boolean first = true;

        Insisting(PostgresServer server) {
            this.server = server;
        }

        String write(long id) throws SQLException {
            try {
                if (session == null) {
                    java.util.Properties properties = new java.util.Properties();
                    properties.setProperty("connectTimeout", "1");
                    properties.setProperty("socketTimeout", "2");
                    session = java.sql.DriverManager.getConnection(server.jdbcUrl("postgres"), properties);
                    if (first) {
                        first = false;
                        try (Statement set = session.createStatement()) {
                            set.execute("SET default_transaction_read_only = off");
                        }
                    }
                }
                return HistoryWriter.write(session, id);
            } catch (SQLException e) {
                if (session != null && !session.isValid(1)) {
                    close();
                }
                throw e;
            }
        }

        void close() {
            try {
                if (session != null) {
                    session.close();
                }
            } catch (SQLException ignored) {
                // ended already
            } finally {
                session = null;
            }
        }
    }
}
