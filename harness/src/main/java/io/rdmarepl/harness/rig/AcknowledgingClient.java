package io.rdmarepl.harness.rig;

import io.rdmarepl.client.FailoverDataSource;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * An application writing through the failover-aware DataSource: one row per transaction into {@link #TABLE},
 * {@code inTransaction} with a client-chosen id (idempotent, so a retry after a cut commit is harmless), paced at a
 * rate, from one or several writer threads (each its own connection, sharing the ids and the rate). For every id
 * whose commit returned it keeps which server acknowledged it ({@code inet_server_port()}), when and how long the
 * transaction took: the client's own view of a failover, and the log of acknowledged ids checked against the new
 * primary.
 */
public final class AcknowledgingClient implements AutoCloseable {
    public static final String TABLE = "client_writes";
    /** Created on both servers before the shipper starts, so it is in the publication. */
    public static final String SCHEMA = "CREATE TABLE " + TABLE + " (id bigint PRIMARY KEY, at timestamptz NOT NULL DEFAULT clock_timestamp())";
    private static final String WRITE = "WITH written AS (INSERT INTO " + TABLE + " (id) VALUES (?) ON CONFLICT (id) DO NOTHING RETURNING 1)"
            + " SELECT inet_server_port()";
    /** One call may span a whole failover: it returns at the first commit on whichever server is primary then. */
    private static final Duration BUDGET = Duration.ofSeconds(15);

    /** Who acknowledged an id, when ({@link System#nanoTime()}) and after how long (the whole inTransaction call). */
    public record Ack(int port, long atNs, long latencyNs) {
    }

    private final FailoverDataSource dataSource;
    private final long pauseNs;
    private final Map<Long, Ack> acknowledged = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong(1);
    private final AtomicLong failures = new AtomicLong();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean running = true;
    private volatile String lastFailure;
    private volatile RuntimeException unexpected;

    /** @param transactionsPerSecond 0: as fast as one client can */
    public AcknowledgingClient(FailoverDataSource dataSource, int transactionsPerSecond) {
        this(dataSource, transactionsPerSecond, 1);
    }

    /**
     * @param transactionsPerSecond in all, shared evenly by the writers; 0: each writer as fast as it can
     * @param writers               writer threads, each with a transaction open at a time (the data source's pool
     *                              should have at least as many connections)
     */
    public AcknowledgingClient(FailoverDataSource dataSource, int transactionsPerSecond, int writers) {
        if (writers < 1) {
            throw new IllegalArgumentException("writers " + writers + ": at least 1");
        }
        this.dataSource = dataSource;
        this.pauseNs = transactionsPerSecond == 0 ? 0 : 1_000_000_000L * writers / transactionsPerSecond;
        for (int i = 0; i < writers; i++) {
            Thread thread = new Thread(this::run, writers == 1 ? "rdmarepl-failover-client" : "rdmarepl-failover-client-" + (i + 1));
            thread.setDaemon(true);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
    }

    private void run() {
        long nextNs = System.nanoTime();
        while (running) {
            long id = nextId.getAndIncrement();
            long startNs = System.nanoTime();
            inFlight.incrementAndGet();
            try {
                int port = dataSource.inTransaction(connection -> {
                    try (PreparedStatement write = connection.prepareStatement(WRITE)) {
                        write.setLong(1, id);
                        try (ResultSet rs = write.executeQuery()) {
                            rs.next();
                            return rs.getInt(1);
                        }
                    }
                }, BUDGET);
                long now = System.nanoTime();
                acknowledged.put(id, new Ack(port, now, now - startNs));
            } catch (SQLException e) {
                failures.incrementAndGet();
                lastFailure = e.getMessage();
            } catch (RuntimeException e) {
                unexpected = e;
                return;
            } finally {
                inFlight.decrementAndGet();
            }
            nextNs += pauseNs;
            long now = System.nanoTime();
            if (nextNs - now > 0) {
                LockSupport.parkNanos(nextNs - now);
            } else {
                nextNs = now; // behind (a failover): carry on at the rate, no burst to catch up
            }
        }
    }

    /** Acknowledged transactions so far. */
    public int acknowledgedCount() {
        return acknowledged.size();
    }

    /** Every acknowledgement so far, by id (a copy). */
    public Map<Long, Ack> acknowledged() {
        return Map.copyOf(acknowledged);
    }

    /** Ids the server listening on {@code port} acknowledged. */
    public Set<Long> acknowledgedBy(int port) {
        Set<Long> ids = new HashSet<>();
        acknowledged.forEach((id, ack) -> {
            if (ack.port() == port) {
                ids.add(id);
            }
        });
        return ids;
    }

    /** Acknowledgements by {@code port} so far. */
    public int countBy(int port) {
        int n = 0;
        for (Ack ack : acknowledged.values()) {
            if (ack.port() == port) {
                n++;
            }
        }
        return n;
    }

    /** The earliest acknowledgement by {@code port} at or after {@code sinceNs}, or -1. */
    public long firstAckNs(int port, long sinceNs) {
        long first = -1;
        for (Ack ack : acknowledged.values()) {
            if (ack.port() == port && ack.atNs() - sinceNs >= 0 && (first == -1 || ack.atNs() - first < 0)) {
                first = ack.atNs();
            }
        }
        return first;
    }

    /** Transactions begun and not returned yet: at most one per writer. */
    public int inFlight() {
        return inFlight.get();
    }

    /** How long each transaction {@code port} acknowledged before {@code beforeNs} took, in µs, in no order. */
    public List<Long> latenciesUs(int port, long beforeNs) {
        List<Long> latencies = new ArrayList<>();
        for (Ack ack : acknowledged.values()) {
            if (ack.port() == port && ack.atNs() - beforeNs < 0) {
                latencies.add(ack.latencyNs() / 1000);
            }
        }
        return latencies;
    }

    /** Transactions given up after their budget. */
    public long failures() {
        return failures.get();
    }

    public String lastFailure() {
        return lastFailure;
    }

    /** Stops writing (the transactions in flight finish). */
    @Override
    public void close() throws InterruptedException {
        running = false;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BUDGET.toMillis() + 5_000);
        for (Thread thread : threads) {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
        if (unexpected != null) {
            throw unexpected;
        }
    }
}
