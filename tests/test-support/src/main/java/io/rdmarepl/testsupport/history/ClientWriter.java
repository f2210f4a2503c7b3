package io.rdmarepl.testsupport.history;

import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A client writing one row per transaction into {@value #TABLE}, with an id of its own choosing (idempotent: a retry
 * after a cut commit is harmless), from one or several writer threads, each recording every acknowledged write in a
 * {@link WriteHistory}: the member that acknowledged it (named from the server's own {@code inet_server_addr()} and
 * {@code inet_server_port()}), when it was sent and when its commit returned. That history, not the system's view of
 * itself, is what a failover or partition test checks ({@link HistoryCheck}).
 * <p>
 * Where the writes go: {@link #to} a failover-aware data source ({@code work -> dataSource.inTransaction(work::run,
 * budget)}: test-support cannot depend on failover-client), {@link #insistingOn} one server in a kept session that
 * turned {@code default_transaction_read_only} off (the hardest case for a fence), or {@link #sessionPerWrite} on one
 * server, as a client trying a standby until it takes writes.
 * <pre>
 *   ClientWriter writer = ClientWriter.to(work -&gt; dataSource.inTransaction(work::run, Duration.ofMillis(200))).start();
 *   writer.awaitMore(200, Duration.ofSeconds(60));
 *   ... fail the primary over ...
 *   writer.close();
 *   HistoryCheck.lost(writer.history().ids(ClientWriter.member(newPrimary)), ClientWriter.ids(newPrimary));
 * </pre>
 */
public final class ClientWriter implements AutoCloseable {
    public static final String TABLE = "client_writes";
    /** Created on every server before the roles start, so that a shipper's publication has it. */
    public static final String SCHEMA = "CREATE TABLE " + TABLE + " (id bigint PRIMARY KEY, at timestamptz NOT NULL DEFAULT clock_timestamp())";
    private static final String WRITE = "WITH written AS (INSERT INTO " + TABLE + " (id) VALUES (?) ON CONFLICT (id) DO NOTHING"
            + " RETURNING 1) SELECT host(inet_server_addr()), inet_server_port()";
    /** Shared by every writer of the JVM: ids are unique across writers and trials. */
    private static final AtomicLong NEXT_ID = new AtomicLong(1);
    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(30);

    /** The server that acknowledged a write, as it names itself. */
    public record Server(String address, int port) {
        public static Server of(PostgresServer server) {
            return new Server(server.host(), server.port());
        }

        @Override
        public String toString() {
            return address + ":" + port;
        }
    }

    /** One write on a connection in a transaction; it must not commit, roll back or close the connection. */
    @FunctionalInterface
    public interface Work {
        Server run(Connection connection) throws SQLException;
    }

    /** Runs {@code work} in one transaction on whichever server it reaches and returns what the work returned. */
    @FunctionalInterface
    public interface Transactions {
        Server run(Work work) throws SQLException;
    }

    private final String name;
    private final WriteHistory history;
    private final Function<Server, String> members;
    private final long intervalNs;
    private final AtomicLong sessions;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong firstFailureNs = new AtomicLong();
    private final AtomicLong longestOutageNs = new AtomicLong();
    private volatile boolean running = true;
    private volatile String lastFailure;
    private volatile RuntimeException unexpected;

    /** How a writer that writes to a server directly opens sessions, and how many it opened. */
    private record Sessions(Properties properties, AtomicLong opened) {
        Connection open(PostgresServer server) throws SQLException {
            Connection connection = DriverManager.getConnection(server.jdbcUrl("postgres"), properties);
            opened.incrementAndGet();
            return connection;
        }
    }

    private ClientWriter(Builder builder) {
        this.name = builder.name;
        this.history = builder.history;
        this.members = builder.members;
        this.intervalNs = builder.intervalNs;
        this.sessions = builder.sessions;
        for (int i = 0; i < builder.writers; i++) {
            Transactions transactions = builder.transactions.get();
            Thread thread = new Thread(() -> run(transactions), builder.writers == 1 ? name : name + "-" + (i + 1));
            thread.setDaemon(true);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
    }

    /** Writes through {@code transactions}, e.g. {@code work -> dataSource.inTransaction(work::run, budget)}. */
    public static Builder to(Transactions transactions) {
        return new Builder("client-writer", sessions -> transactions);
    }

    /**
     * Writes to {@code server} in one kept session that turned {@code default_transaction_read_only} off, and in a new
     * (plain) one whenever that session was ended.
     */
    public static Builder insistingOn(PostgresServer server) {
        return new Builder("insisting-" + server.name(), sessions -> new Insisting(server, sessions));
    }

    /** Writes to {@code server} in a new session each attempt. */
    public static Builder sessionPerWrite(PostgresServer server) {
        return new Builder("session-per-write-" + server.name(), sessions -> new SessionPerWrite(server, sessions));
    }

    /** The member name a writer gives {@code server} unless told otherwise ({@link Builder#members}): "address:port". */
    public static String member(PostgresServer server) {
        return Server.of(server).toString();
    }

    /** Every id in {@value #TABLE} on {@code server}: what it holds, to check the history against. */
    public static Set<Long> ids(PostgresServer server) throws SQLException {
        Set<Long> ids = new HashSet<>();
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id FROM " + TABLE)) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }

    /** The write every transaction makes: a new id; returns the server it ran on. */
    public static Server write(Connection connection, long id) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(WRITE)) {
            insert.setLong(1, id);
            try (ResultSet rs = insert.executeQuery()) {
                rs.next();
                return new Server(rs.getString(1), rs.getInt(2));
            }
        }
    }

    private void run(Transactions transactions) {
        long nextNs = System.nanoTime();
        try {
            while (running) {
                long id = NEXT_ID.getAndIncrement();
                long invokedNs = System.nanoTime();
                inFlight.incrementAndGet();
                try {
                    Server server = transactions.run(connection -> write(connection, id));
                    history.acknowledged(id, members.apply(server), invokedNs, System.nanoTime());
                    acknowledged.incrementAndGet();
                    long failedSince = firstFailureNs.getAndSet(0);
                    if (failedSince != 0) {
                        longestOutageNs.accumulateAndGet(System.nanoTime() - failedSince, Math::max);
                    }
                } catch (SQLException e) {
                    failures.incrementAndGet();
                    lastFailure = e.getMessage();
                    firstFailureNs.compareAndSet(0, System.nanoTime());
                } finally {
                    inFlight.decrementAndGet();
                }
                nextNs += intervalNs;
                long now = System.nanoTime();
                if (nextNs - now > 0) {
                    LockSupport.parkNanos(nextNs - now); // the workload's rate: not a wait for something
                } else {
                    nextNs = now; // behind (a failover): carry on at the rate, no burst to catch up
                }
            }
        } catch (RuntimeException e) {
            unexpected = e;
        } finally {
            if (transactions instanceof AutoCloseable session) {
                try {
                    session.close();
                } catch (Exception ignored) {
                    // a session on a server that is gone
                }
            }
        }
    }

    public WriteHistory history() {
        return history;
    }

    /** Writes this writer had acknowledged (its history may hold other writers' too). */
    public long acknowledged() {
        return acknowledged.get();
    }

    /** Attempts that failed (the transactions' budget ran out, or the server refused or was gone). */
    public long failures() {
        return failures.get();
    }

    public String lastFailure() {
        return lastFailure;
    }

    /** Transactions begun and not returned yet: at most one per writer thread. */
    public int inFlight() {
        return inFlight.get();
    }

    /** The longest stretch during which every attempt failed, in ms. */
    public long longestOutageMs() {
        return TimeUnit.NANOSECONDS.toMillis(longestOutageNs.get());
    }

    /** Sessions the writer opened itself ({@link #insistingOn}, {@link #sessionPerWrite}); 0 through {@link #to}. */
    public long sessionsOpened() {
        return sessions.get();
    }

    /** Waits until this writer had {@code more} further writes acknowledged. */
    public void awaitMore(long more, Duration timeout) {
        long target = acknowledged() + more;
        Await.until(name + " has " + target + " writes acknowledged", timeout, this::acknowledged, n -> {
            if (unexpected != null) {
                throw new AssertionError(name + " stopped: " + unexpected, unexpected);
            }
            return n >= target;
        });
    }

    /** Stops writing: the transactions in flight finish. Throws what stopped a writer thread unexpectedly. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        long deadlineNs = System.nanoTime() + JOIN_TIMEOUT.toNanos();
        for (Thread thread : threads) {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime())));
        }
        if (unexpected != null) {
            throw unexpected;
        }
    }

    @Override
    public String toString() {
        return name + ": " + acknowledged() + " acknowledged, " + failures() + " failed attempts, last failure: " + lastFailure;
    }

    /** How a {@link ClientWriter} writes; {@link #start()} starts it. */
    public static final class Builder {
        private final Function<Sessions, Transactions> source;
        private final AtomicLong sessions = new AtomicLong();
        private Supplier<Transactions> transactions;
        private String name;
        private WriteHistory history = new WriteHistory();
        private Function<Server, String> members = Server::toString;
        private int writers = 1;
        private long intervalNs = TimeUnit.MILLISECONDS.toNanos(2);
        private int ratePerSecond = -1;
        private Duration socketTimeout;

        private Builder(String name, Function<Sessions, Transactions> source) {
            this.name = name;
            this.source = source;
        }

        /** Names the writer's threads and its failures. */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /** Records into {@code history}, which other writers may share; a new one otherwise. */
        public Builder history(WriteHistory history) {
            this.history = history;
            return this;
        }

        /** Names the member that acknowledged a write; "address:port" ({@link #member}) otherwise. */
        public Builder members(Function<Server, String> members) {
            this.members = members;
            return this;
        }

        /** Writer threads, each with a transaction at a time (and a session of its own on a server it insists on). */
        public Builder writers(int writers) {
            if (writers < 1) {
                throw new IllegalArgumentException("writers " + writers + ": at least 1");
            }
            this.writers = writers;
            return this;
        }

        /** Each writer thread starts a transaction at most once per {@code interval} (2 ms unless told); zero: flat out. */
        public Builder interval(Duration interval) {
            this.intervalNs = interval.toNanos();
            this.ratePerSecond = -1;
            return this;
        }

        /** Transactions per second in all, shared evenly by the writer threads; 0: each as fast as it can. */
        public Builder ratePerSecond(int transactionsPerSecond) {
            if (transactionsPerSecond < 0) {
                throw new IllegalArgumentException("rate " + transactionsPerSecond + ": 0 (flat out) or more");
            }
            this.ratePerSecond = transactionsPerSecond;
            return this;
        }

        /**
         * A session on a server written to directly ({@link #insistingOn}, {@link #sessionPerWrite}) gives up on a
         * statement unanswered this long, and is replaced: for a server whose host is cut off, which would otherwise
         * hold the writer for ever. None unless told (a long commit is then not mistaken for an ended session).
         */
        public Builder socketTimeout(Duration timeout) {
            this.socketTimeout = timeout;
            return this;
        }

        public ClientWriter start() {
            if (ratePerSecond >= 0) {
                intervalNs = ratePerSecond == 0 ? 0 : TimeUnit.SECONDS.toNanos(1) * writers / ratePerSecond;
            }
            Properties properties = new Properties();
            properties.setProperty("connectTimeout", "1"); // s: a server that does not answer is as good as down here
            if (socketTimeout != null) {
                properties.setProperty("socketTimeout", Long.toString(Math.max(1, socketTimeout.toSeconds())));
            }
            transactions = () -> source.apply(new Sessions(properties, sessions));
            return new ClientWriter(this);
        }
    }

    /** One kept session on one server that turned read-only off; a new (plain) one once it was ended. */
    private static final class Insisting implements Transactions, AutoCloseable {
        private final PostgresServer server;
        private final Sessions sessions;
        private Connection session;
        private boolean first = true;

        Insisting(PostgresServer server, Sessions sessions) {
            this.server = server;
            this.sessions = sessions;
        }

        @Override
        public Server run(Work work) throws SQLException {
            try {
                if (session == null) {
                    session = sessions.open(server);
                    if (first) {
                        first = false;
                        try (Statement set = session.createStatement()) {
                            set.execute("SET default_transaction_read_only = off"); // only the first session insists
                        }
                    }
                }
                return work.run(session);
            } catch (SQLException e) {
                if (session != null && !session.isValid(1)) {
                    close();
                }
                throw e;
            }
        }

        @Override
        public void close() {
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

    /** A new session on one server for every attempt. */
    private static final class SessionPerWrite implements Transactions {
        private final PostgresServer server;
        private final Sessions sessions;

        SessionPerWrite(PostgresServer server, Sessions sessions) {
            this.server = server;
            this.sessions = sessions;
        }

        @Override
        public Server run(Work work) throws SQLException {
            try (Connection connection = sessions.open(server)) {
                return work.run(connection);
            }
        }
    }
}
