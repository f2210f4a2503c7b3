package io.rdmarepl.e2e;

import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.PostgresServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Clients on the primary, paced to a few hundred transactions over a few seconds. Every committed transaction
 * inserts rows into the keyless {@code history} table (REPLICA IDENTITY FULL) tagged with its own number, so a
 * transaction applied twice shows as extra rows there, and one lost shows as missing rows; it also updates a
 * keyed table. Some transactions insert two identical history rows (legitimate duplicates), update or delete one
 * history row by its whole content, insert new accounts, or roll back.
 */
final class Workload {
    static final int ACCOUNTS = 50;

    /** Created on both servers before the shipper starts. */
    static final String SCHEMA = """
            CREATE TABLE accounts (aid int PRIMARY KEY, balance bigint NOT NULL, last_tx bigint);
            CREATE TABLE history (tx bigint NOT NULL, aid int NOT NULL, delta int NOT NULL, note text);
            ALTER TABLE history REPLICA IDENTITY FULL;
            CREATE TABLE marker (id bigint PRIMARY KEY, at timestamptz NOT NULL DEFAULT clock_timestamp());
            INSERT INTO accounts SELECT a, 0, NULL FROM generate_series(1, 50) a;
            """;

    private final PostgresServer primary;
    private final long pauseMicros;
    private final AtomicLong nextTx = new AtomicLong(1);
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong rolledBack = new AtomicLong();
    private final AtomicLong nextAccount = new AtomicLong(ACCOUNTS + 1);
    private final List<Thread> clients = new ArrayList<>();
    private volatile boolean running;
    private volatile Exception failure;

    /**
     * @param pause between two transactions of one client
     */
    Workload(PostgresServer primary, Duration pause) {
        this.primary = primary;
        this.pauseMicros = TimeUnit.NANOSECONDS.toMicros(pause.toNanos());
    }

    void start(int clientCount) {
        running = true;
        for (int i = 0; i < clientCount; i++) {
            Thread client = new Thread(this::client, "e2e-client-" + i);
            client.setDaemon(true);
            clients.add(client);
            client.start();
        }
    }

    /** Stops the clients after their current transaction; throws what a client failed with. */
    void stop() throws Exception {
        running = false;
        for (Thread client : clients) {
            client.join(30_000);
            if (client.isAlive()) {
                throw new IllegalStateException(client.getName() + " did not stop within 30 s");
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    long committed() {
        return committed.get();
    }

    long rolledBack() {
        return rolledBack.get();
    }

    /** Waits until at least {@code count} transactions committed (while the clients run). */
    void awaitCommitted(long count, Duration timeout) throws Exception {
        Await.until("the workload committed " + count + " transactions, or failed", timeout,
                () -> committed.get() >= count || failure != null, () -> committed.get() + " committed");
        if (committed.get() < count) {
            throw failure;
        }
    }

    private void client() {
        try (Connection c = primary.connect("postgres")) {
            c.setAutoCommit(false);
            ThreadLocalRandom random = ThreadLocalRandom.current();
            while (running) {
                long tx = nextTx.getAndIncrement();
                int aid = 1 + random.nextInt(ACCOUNTS);
                int delta = random.nextInt(-1000, 1001);
                int kind = random.nextInt(100);
                try (Statement s = c.createStatement()) {
                    s.execute("UPDATE accounts SET balance = balance + " + delta + ", last_tx = " + tx + " WHERE aid = " + aid);
                    if (kind < 10) {
                        // two identical rows in a keyless table: both must arrive, and a later delete removes only one
                        s.execute("INSERT INTO history VALUES (" + tx + ", " + aid + ", " + delta + ", 'twin'), (" + tx + ", "
                                + aid + ", " + delta + ", 'twin')");
                    } else {
                        s.execute("INSERT INTO history VALUES (" + tx + ", " + aid + ", " + delta + ", NULL)");
                    }
                    if (kind >= 10 && kind < 20) {
                        s.execute("UPDATE history SET note = 'seen by " + tx + "' WHERE ctid = (SELECT ctid FROM history WHERE aid = "
                                + aid + " AND tx < " + tx + " LIMIT 1)");
                    } else if (kind >= 20 && kind < 28) {
                        s.execute("DELETE FROM history WHERE ctid = (SELECT ctid FROM history WHERE aid = " + aid + " AND tx < " + tx
                                + " ORDER BY note NULLS LAST LIMIT 1)");
                    } else if (kind >= 28 && kind < 33) {
                        s.execute("INSERT INTO accounts VALUES (" + nextAccount.getAndIncrement() + ", " + delta + ", " + tx + ")");
                    }
                }
                if (kind >= 95) {
                    c.rollback();
                    rolledBack.incrementAndGet();
                } else {
                    c.commit();
                    committed.incrementAndGet();
                }
                TimeUnit.MICROSECONDS.sleep(pauseMicros); // the workload's rate: not a wait for something
            }
        } catch (Exception e) {
            failure = e;
            running = false;
        }
    }

    /** Inserts marker {@code id}: once the replica has it, it has every transaction committed before. */
    static void mark(PostgresServer primary, long id) throws SQLException {
        try (Connection c = primary.connect("postgres"); Statement s = c.createStatement()) {
            s.execute("INSERT INTO marker (id) VALUES (" + id + ")");
        }
    }
}
