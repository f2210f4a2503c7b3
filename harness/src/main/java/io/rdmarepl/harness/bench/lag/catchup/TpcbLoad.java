package io.rdmarepl.harness.bench.lag.catchup;

import io.rdmarepl.harness.bench.lag.Endpoint;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * pgbench's built-in tpcb-like script, flat out, from {@code clients} connections for a fixed time: per transaction one
 * account (random over the scale), its balance read back, one teller, one branch (each random, as pgbench picks them)
 * and one history row; prepared statements, one commit. Its simple-update variant (pgbench -N) leaves teller and branch
 * out: no row that every transaction contends for. Every transaction takes its locks in the same order (account,
 * teller, branch), so none deadlocks; a serialization failure or deadlock would be rolled back, counted and retried.
 */
final class TpcbLoad {
    private static final long JOIN_MS = 30_000;

    /**
     * @param transactions committed, as the clients saw their commits return
     * @param seconds      from the start signal until the last client stopped
     * @param retries      transactions rolled back on 40001 / 40P01 and run again
     */
    record Result(long transactions, double seconds, long retries) {
        double transactionsPerSecond() {
            return seconds <= 0 ? 0 : transactions / seconds;
        }
    }

    private final Endpoint primary;
    private final String database;
    private final int clients;
    private final int scale;
    private final boolean simpleUpdate;
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();
    private volatile Exception failure;

    TpcbLoad(Endpoint primary, String database, int clients, int scale, boolean simpleUpdate) {
        this.simpleUpdate = simpleUpdate;
        this.primary = primary;
        this.database = database;
        this.clients = clients;
        this.scale = scale;
    }

    /** Connects every client, then runs them all for {@code seconds}; returns when they all stopped. */
    Result run(int seconds) throws Exception {
        CountDownLatch ready = new CountDownLatch(clients);
        CountDownLatch go = new CountDownLatch(1);
        long[] deadline = new long[1];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            Thread t = new Thread(() -> client(ready, go, deadline), "bench-catchup-client-" + i);
            threads.add(t);
            t.start();
        }
        if (!ready.await(60, TimeUnit.SECONDS) && failure == null) {
            failure = new IllegalStateException("the load's clients could not connect to " + primary + " within 60 s");
        }
        long startNs = System.nanoTime();
        deadline[0] = startNs + TimeUnit.SECONDS.toNanos(seconds);
        go.countDown(); // publishes deadline[0] to the clients
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(seconds) + JOIN_MS);
            if (t.isAlive()) {
                throw new IllegalStateException(t.getName() + " did not stop within " + JOIN_MS + " ms of the end of the load");
            }
        }
        double elapsed = (System.nanoTime() - startNs) / 1e9;
        if (failure != null) {
            throw failure;
        }
        return new Result(committed.get(), elapsed, retries.get());
    }

    private void client(CountDownLatch ready, CountDownLatch go, long[] deadline) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int accounts = TpcbTables.ACCOUNTS_PER_SCALE * scale;
        int tellers = TpcbTables.TELLERS_PER_SCALE * scale;
        try (Connection c = primary.connect(database);
             PreparedStatement account = c.prepareStatement("UPDATE pgbench_accounts SET abalance = abalance + ? WHERE aid = ?");
             PreparedStatement balance = c.prepareStatement("SELECT abalance FROM pgbench_accounts WHERE aid = ?");
             PreparedStatement teller = c.prepareStatement("UPDATE pgbench_tellers SET tbalance = tbalance + ? WHERE tid = ?");
             PreparedStatement branch = c.prepareStatement("UPDATE pgbench_branches SET bbalance = bbalance + ? WHERE bid = ?");
             PreparedStatement history = c.prepareStatement(
                     "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP)")) {
            c.setAutoCommit(false);
            ready.countDown();
            go.await();
            long end = deadline[0];
            while (System.nanoTime() - end < 0 && failure == null) {
                int aid = 1 + random.nextInt(accounts);
                int bid = 1 + random.nextInt(scale);
                int tid = 1 + random.nextInt(tellers);
                int delta = random.nextInt(-5000, 5001);
                try {
                    update(account, delta, aid);
                    balance.setInt(1, aid);
                    try (ResultSet rs = balance.executeQuery()) {
                        rs.next();
                    }
                    if (!simpleUpdate) {
                        update(teller, delta, tid);
                        update(branch, delta, bid);
                    }
                    history.setInt(1, tid);
                    history.setInt(2, bid);
                    history.setInt(3, aid);
                    history.setInt(4, delta);
                    history.executeUpdate();
                    c.commit();
                    committed.incrementAndGet();
                } catch (SQLException e) {
                    c.rollback();
                    if (!retriable(e)) {
                        throw e;
                    }
                    retries.incrementAndGet();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail(e);
        } catch (Exception e) {
            fail(e);
        } finally {
            ready.countDown(); // a client that could not connect must not hold the others back
        }
    }

    private static void update(PreparedStatement statement, int delta, int id) throws SQLException {
        statement.setInt(1, delta);
        statement.setInt(2, id);
        statement.executeUpdate();
    }

    private static boolean retriable(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.equals("40001") || state.equals("40P01"));
    }

    private void fail(Exception e) {
        if (failure == null) {
            failure = e;
        }
    }
}
