package io.rdmarepl.cli.rig;

import io.rdmarepl.client.FailoverDataSource;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * An application writing through the failover-aware DataSource: one row per transaction into {@link #TABLE},
 * {@code inTransaction} with a client-chosen id (idempotent, so a retry after a cut commit is harmless), paced at a
 * rate. For every id whose commit returned it keeps which server acknowledged it ({@code inet_server_port()}) and
 * when, the client's own view of a failover.
 */
public final class AcknowledgingClient implements AutoCloseable {
    public static final String TABLE = "client_writes";
    /** Created on both servers before the shipper starts, so it is in the publication. */
    public static final String SCHEMA = "CREATE TABLE " + TABLE + " (id bigint PRIMARY KEY, at timestamptz NOT NULL DEFAULT clock_timestamp())";
    private static final String WRITE = "WITH written AS (INSERT INTO " + TABLE + " (id) VALUES (?) ON CONFLICT (id) DO NOTHING RETURNING 1)"
            + " SELECT inet_server_port()";
    /** One call may span a whole failover: it returns at the first commit on whichever server is primary then. */
    private static final Duration BUDGET = Duration.ofSeconds(15);

    /** Who acknowledged an id and when ({@link System#nanoTime()}). */
    public record Ack(int port, long atNs) {
    }

    private final FailoverDataSource dataSource;
    private final long pauseNs;
    private final Map<Long, Ack> acknowledged = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong(1);
    private final AtomicLong failures = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile String lastFailure;
    private volatile RuntimeException unexpected;

    /** @param transactionsPerSecond 0: as fast as one client can */
    public AcknowledgingClient(FailoverDataSource dataSource, int transactionsPerSecond) {
        this.dataSource = dataSource;
        this.pauseNs = transactionsPerSecond == 0 ? 0 : 1_000_000_000L / transactionsPerSecond;
        this.thread = new Thread(this::run, "rdmarepl-failover-client");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        long nextNs = System.nanoTime();
        while (running) {
            long id = nextId.getAndIncrement();
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
                acknowledged.put(id, new Ack(port, System.nanoTime()));
            } catch (SQLException e) {
                failures.incrementAndGet();
                lastFailure = e.getMessage();
            } catch (RuntimeException e) {
                unexpected = e;
                return;
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

    /** Transactions given up after their budget. */
    public long failures() {
        return failures.get();
    }

    public String lastFailure() {
        return lastFailure;
    }

    /** Stops writing (the transaction in flight finishes). */
    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(BUDGET.toMillis() + 5_000);
        if (unexpected != null) {
            throw unexpected;
        }
    }
}
