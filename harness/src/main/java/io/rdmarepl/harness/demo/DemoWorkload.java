package io.rdmarepl.harness.demo;

import io.rdmarepl.testsupport.PostgresServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Concurrent clients on the primary: pgbench's TPC-B transaction, inserts of rows with every type,
 * primary-key updates, keyless deletes, rolled-back transactions; and a probe inserting at a steady
 * rate for the lag measurement.
 */
final class DemoWorkload {
    private final PostgresServer primary;
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong rolledBack = new AtomicLong();
    private final AtomicLong nextTypesId = new AtomicLong(1);
    private final AtomicLong nextProbeId = new AtomicLong(1);
    private volatile boolean running = true;
    private volatile Exception failure;

    DemoWorkload(PostgresServer primary) {
        this.primary = primary;
    }

    /**
     * Runs {@code clients} clients and the probe for {@code seconds}, then returns.
     *
     * @param transactionsPerSecond all clients together; 0 = as fast as they can
     */
    void run(int clients, int seconds, int probesPerSecond, int transactionsPerSecond) throws Exception {
        running = true;
        List<Thread> threads = new ArrayList<>();
        long pauseNs = transactionsPerSecond == 0 ? 0 : 1_000_000_000L * clients / transactionsPerSecond;
        for (int i = 0; i < clients; i++) {
            threads.add(new Thread(() -> client(pauseNs), "demo-client-" + i));
        }
        threads.add(new Thread(() -> probe(probesPerSecond), "demo-probe"));
        threads.forEach(Thread::start);
        Thread.sleep(seconds * 1000L);
        running = false;
        for (Thread thread : threads) {
            thread.join(30_000);
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Inserts one more probe row and returns its id: once the replica has it, it has everything before. */
    long finalProbe() throws SQLException {
        long id = nextProbeId.getAndIncrement();
        try (Connection c = primary.connect("postgres"); Statement s = c.createStatement()) {
            s.execute("INSERT INTO probe (id) VALUES (" + id + ")");
        }
        return id;
    }

    /** Id the next probe will get: probes below it were sent before now. */
    long nextProbeId() {
        return nextProbeId.get();
    }

    long committed() {
        return committed.get();
    }

    long rolledBack() {
        return rolledBack.get();
    }

    private void client(long pauseNs) {
        try (Connection c = primary.connect("postgres")) {
            c.setAutoCommit(false);
            ThreadLocalRandom random = ThreadLocalRandom.current();
            long next = System.nanoTime();
            while (running) {
                if (pauseNs > 0) {
                    next += pauseNs;
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                    }
                }
                int kind = random.nextInt(100);
                if (kind < 70) {
                    tpcb(c, random);
                } else if (kind < 85) {
                    insertAllTypes(c, random);
                } else if (kind < 90) {
                    movePrimaryKey(c);
                } else if (kind < 95) {
                    deleteHistory(c, random);
                } else {
                    try (Statement s = c.createStatement()) {
                        s.execute("INSERT INTO accounts VALUES (-1, 1, 0, 'never committed')");
                    }
                    c.rollback();
                    rolledBack.incrementAndGet();
                    continue;
                }
                c.commit();
                committed.incrementAndGet();
            }
        } catch (Exception e) {
            failure = e;
            running = false;
        }
    }

    private static void tpcb(Connection c, ThreadLocalRandom random) throws SQLException {
        int aid = 1 + random.nextInt(DemoSchema.ACCOUNTS);
        int tid = 1 + random.nextInt(DemoSchema.TELLERS);
        int bid = 1 + random.nextInt(DemoSchema.BRANCHES);
        int delta = random.nextInt(-5000, 5001);
        try (Statement s = c.createStatement()) {
            s.execute("UPDATE accounts SET abalance = abalance + " + delta + " WHERE aid = " + aid);
            s.execute("UPDATE tellers SET tbalance = tbalance + " + delta + " WHERE tid = " + tid);
            s.execute("UPDATE branches SET bbalance = bbalance + " + delta + " WHERE bid = " + bid);
            s.execute("INSERT INTO history VALUES (" + tid + ", " + bid + ", " + aid + ", " + delta + ", clock_timestamp(), NULL)");
        }
    }

    private void insertAllTypes(Connection c, ThreadLocalRandom random) throws SQLException {
        long id = nextTypesId.getAndIncrement();
        try (PreparedStatement p = c.prepareStatement("""
                INSERT INTO all_types VALUES (?, 32767, -2147483648, 9223372036854775807,
                  ?::numeric, 'NaN'::real, '-0'::float8, true, ?, 'varchar', 'ab', '\\x00ff00'::bytea, 'infinity'::date,
                  '23:59:59.999999', '2026-12-02 10:11:12.123456', clock_timestamp(), '1 year 2 mons 3 days 04:05:06.789',
                  gen_random_uuid(), '{"a": [1, 2]}', '{"b": {"c": null}}', '2001:db8::1/64', '10.0.0.0/8', '08:00:2b:01:02:03',
                  '{1,NULL,3}', '{"x","y z",NULL}', 'happy', '(1.5,2)', ?)
                """)) {
            p.setLong(1, id);
            p.setString(2, random.nextBoolean() ? "123456789012345678901234567890.1234567890" : "-0.000001");
            p.setString(3, "unicode é ✓ 😀 " + id);
            p.setString(4, id % 50 == 0 ? "x".repeat(200_000) : null);
            p.execute();
        }
        if (id % 7 == 0) {
            try (Statement s = c.createStatement()) {
                // an update of another column leaves the big TOASTed value unchanged on the wire
                s.execute("UPDATE all_types SET i4 = i4 + 1 WHERE id = " + (id - 1));
            }
        }
    }

    private void movePrimaryKey(Connection c) throws SQLException {
        long id = nextTypesId.get() - 1;
        try (Statement s = c.createStatement()) {
            s.execute("UPDATE all_types SET id = -id WHERE id = " + id);
        }
    }

    private static void deleteHistory(Connection c, ThreadLocalRandom random) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DELETE FROM history WHERE ctid = (SELECT ctid FROM history WHERE tid = " + (1 + random.nextInt(DemoSchema.TELLERS))
                    + " LIMIT 1)");
        }
    }

    private void probe(int perSecond) {
        long intervalNs = 1_000_000_000L / Math.max(1, perSecond);
        try (Connection c = primary.connect("postgres"); PreparedStatement p = c.prepareStatement("INSERT INTO probe (id) VALUES (?)")) {
            long next = System.nanoTime();
            while (running) {
                p.setLong(1, nextProbeId.getAndIncrement());
                p.execute();
                committed.incrementAndGet();
                next += intervalNs;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
            }
        } catch (Exception e) {
            failure = e;
            running = false;
        }
    }
}
