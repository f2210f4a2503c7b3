package io.rdmarepl.e2e;

import io.rdmarepl.client.FailoverDataSource;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An application writing through the failover-aware DataSource: one row per transaction into
 * {@code client_writes}, each id kept once its commit returned (acknowledged), and the longest time the
 * client saw only errors (its view of the failover).
 */
final class ClientWriter implements AutoCloseable {
    static final String SCHEMA = "CREATE TABLE client_writes (id bigint PRIMARY KEY, at timestamptz NOT NULL DEFAULT clock_timestamp())";

    private final FailoverDataSource dataSource;
    private final Set<Long> acknowledged = new ConcurrentSkipListSet<>();
    private final java.util.Map<Long, Integer> acknowledgedBy = new java.util.concurrent.ConcurrentHashMap<>();
    /** Shared by every writer of the run: ids are unique across the tests of a class. */
    private static final AtomicLong NEXT_ID = new AtomicLong(1);
    private final AtomicLong failures = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long firstFailureNs;
    private volatile long longestOutageNs;
    private volatile Exception unexpected;

    ClientWriter(FailoverDataSource dataSource) {
        this.dataSource = dataSource;
        this.thread = new Thread(this::run, "e2e-client-writer");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        while (running) {
            long id = NEXT_ID.getAndIncrement();
            try {
                int port = dataSource.inTransaction(connection -> {
                    try (PreparedStatement insert = connection.prepareStatement(
                            "INSERT INTO client_writes (id) VALUES (?) ON CONFLICT (id) DO NOTHING RETURNING inet_server_port()")) {
                        insert.setLong(1, id);
                        try (java.sql.ResultSet rs = insert.executeQuery()) {
                            return rs.next() ? rs.getInt(1) : -1;
                        }
                    }
                }, Duration.ofMillis(200));
                acknowledged.add(id);
                acknowledgedBy.put(id, port);
                if (firstFailureNs != 0) {
                    longestOutageNs = Math.max(longestOutageNs, System.nanoTime() - firstFailureNs);
                    firstFailureNs = 0;
                }
            } catch (java.sql.SQLException e) {
                failures.incrementAndGet();
                if (firstFailureNs == 0) {
                    firstFailureNs = System.nanoTime();
                }
            } catch (RuntimeException e) {
                unexpected = e;
                running = false;
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Ids whose commit returned to this client. */
    Set<Long> acknowledged() {
        return acknowledged;
    }

    /** Ids whose commit the server listening on {@code port} acknowledged. */
    Set<Long> acknowledgedBy(int port) {
        Set<Long> ids = new java.util.HashSet<>();
        acknowledgedBy.forEach((id, by) -> {
            if (by == port) {
                ids.add(id);
            }
        });
        return ids;
    }

    long failures() {
        return failures.get();
    }

    /** The longest stretch during which every attempt failed, in ms. */
    long longestOutageMs() {
        return TimeUnit.NANOSECONDS.toMillis(longestOutageNs);
    }

    @Override
    public void close() throws Exception {
        running = false;
        thread.join(10_000);
        if (unexpected != null) {
            throw unexpected;
        }
    }
}
