package io.rdmarepl.harness.bench.lag;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * What runs on the primary during a round: the probe, one connection inserting into {@code probe} at
 * {@code --probe-rate} (autocommit; its commit latency as the client sees it goes into a histogram), and
 * the background load, {@code --clients} connections running TPC-B transactions (per transaction
 * {@code --rows-per-tx} account updates and history rows of {@code --row-bytes} filler, one teller, one
 * branch), paced to a total rate or flat out. A probe that falls more than one interval behind its schedule
 * is sent at once and the schedule restarts from there (no burst to catch up). The wall-clock time each probe's
 * commit returned is kept too: against the replica's {@code applied_at} it splits a synchronous commit in two.
 */
final class LagWorkload {
    private static final long JOIN_MS = 30_000;

    /**
     * The measured window: probes {@code firstProbe..lastProbe}, everything committed on the primary meanwhile.
     *
     * @param returnedUs per probe of the window, in id order: when its commit returned to the client (wall clock,
     *                   microseconds since the epoch; 0 when unknown)
     */
    record Window(long firstProbe, long lastProbe, double seconds, long transactions, long probes, Histogram commitUs,
                  long loadRetries, long[] returnedUs) {
        Window(long firstProbe, long lastProbe, double seconds, long transactions, long probes, Histogram commitUs, long loadRetries) {
            this(firstProbe, lastProbe, seconds, transactions, probes, commitUs, loadRetries, new long[0]);
        }

        /** When the commit of probe {@code id} returned to the client, wall clock in microseconds; 0 when unknown. */
        long returnedUs(long id) {
            long index = id - firstProbe;
            return index >= 0 && index < returnedUs.length ? returnedUs[(int) index] : 0;
        }

        double throughputTps() {
            return seconds <= 0 ? 0 : transactions / seconds;
        }

        double probeRate() {
            return seconds <= 0 ? 0 : probes / seconds;
        }
    }

    private final Endpoint primary;
    private final String database;
    private final LagBenchSettings settings;
    private final AtomicLong nextProbeId = new AtomicLong(1);
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong probes = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();
    private final SingleWriterRecorder commitUs = new SingleWriterRecorder(Figures.HIGHEST_US, 3);
    private final List<Thread> threads = new ArrayList<>();
    /** Written by the probe thread only, read after it stopped: by probe id. */
    private long[] returned = new long[1 << 14];
    private volatile boolean running;
    private volatile Exception failure;
    private long windowStartNs;
    private long firstProbe;
    private long committedAtStart;
    private long probesAtStart;
    private long retriesAtStart;

    LagWorkload(Endpoint primary, String database, LagBenchSettings settings) {
        this.primary = primary;
        this.database = database;
        this.settings = settings;
    }

    void start() {
        running = true;
        threads.add(new Thread(this::probe, "bench-lag-probe"));
        if (!settings.load().none()) {
            long intervalNs = settings.load().clientIntervalNs(settings.clients());
            for (int i = 0; i < settings.clients(); i++) {
                threads.add(new Thread(() -> client(intervalNs), "bench-lag-client-" + i));
            }
        }
        threads.forEach(Thread::start);
    }

    /** The measured window opens: probes from now on count, and commits and latencies from now on. */
    void measuring() {
        windowStartNs = System.nanoTime();
        firstProbe = nextProbeId.get();
        committedAtStart = committed.get();
        probesAtStart = probes.get();
        retriesAtStart = retries.get();
        commitUs.getIntervalHistogram(); // drops the warm-up's
    }

    /** Stops the probe and the load; the window closes. */
    Window stop() throws Exception {
        running = false;
        long endNs = System.nanoTime();
        for (Thread thread : threads) {
            thread.join(JOIN_MS);
            if (thread.isAlive()) {
                throw new IllegalStateException(thread.getName() + " did not stop within " + JOIN_MS + " ms");
            }
        }
        if (failure != null) {
            throw failure;
        }
        long lastProbe = nextProbeId.get() - 1;
        long[] window = new long[(int) Math.max(0, lastProbe - firstProbe + 1)];
        for (int i = 0; i < window.length && firstProbe + i < returned.length; i++) {
            window[i] = returned[(int) (firstProbe + i)];
        }
        return new Window(firstProbe, lastProbe, (endNs - windowStartNs) / 1e9, committed.get() - committedAtStart,
                probes.get() - probesAtStart, commitUs.getIntervalHistogram(), retries.get() - retriesAtStart, window);
    }

    /** Inserts one more probe after everything else: once the replica holds it, it holds all before it. */
    long finalProbe() throws SQLException {
        long id = nextProbeId.getAndIncrement();
        try (Connection c = primary.connect(database); PreparedStatement insert = c.prepareStatement(ProbeTable.INSERT)) {
            insert.setLong(1, id);
            insert.executeUpdate();
        }
        return id;
    }

    /** Transactions committed so far (probes and load), for the progress line. */
    long committed() {
        return committed.get();
    }

    Exception failure() {
        return failure;
    }

    private void probe() {
        long intervalNs = 1_000_000_000L / settings.probeRate();
        try (Connection c = primary.connect(database); PreparedStatement insert = c.prepareStatement(ProbeTable.INSERT)) {
            long next = System.nanoTime();
            while (running) {
                long id = nextProbeId.getAndIncrement();
                insert.setLong(1, id);
                long t0 = System.nanoTime();
                insert.executeUpdate();
                long t1 = System.nanoTime();
                returned(id, wallClockUs());
                commitUs.recordValue(Math.min(Figures.HIGHEST_US, (t1 - t0) / 1000));
                probes.incrementAndGet();
                committed.incrementAndGet();
                next += intervalNs;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                } else if (-wait > intervalNs) {
                    next = System.nanoTime();
                }
            }
        } catch (Exception e) {
            fail(e);
        }
    }

    private void returned(long id, long wallUs) {
        if (id >= returned.length) {
            returned = Arrays.copyOf(returned, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(id + 1, 2L * returned.length)));
        }
        if (id < returned.length) {
            returned[(int) id] = wallUs;
        }
    }

    /** The wall clock in microseconds, as PostgreSQL's clock_timestamp() reads it (one host, one clock). */
    static long wallClockUs() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    private void client(long intervalNs) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String filler = filler(random, settings.rowBytes());
        int rows = settings.rowsPerTx();
        try (Connection c = primary.connect(database);
             PreparedStatement account = c.prepareStatement("UPDATE accounts SET abalance = abalance + ? WHERE aid = ?");
             PreparedStatement teller = c.prepareStatement("UPDATE tellers SET tbalance = tbalance + ? WHERE tid = ?");
             PreparedStatement branch = c.prepareStatement("UPDATE branches SET bbalance = bbalance + ? WHERE bid = ?");
             PreparedStatement history = c.prepareStatement(
                     "INSERT INTO history (tid, bid, aid, delta, mtime, filler) VALUES (?, ?, ?, ?, clock_timestamp(), ?)")) {
            c.setAutoCommit(false);
            long next = System.nanoTime();
            int[] aids = new int[rows];
            while (running) {
                if (intervalNs > 0) {
                    next += intervalNs;
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                    } else if (-wait > intervalNs) {
                        next = System.nanoTime();
                    }
                }
                for (int i = 0; i < rows; i++) {
                    aids[i] = 1 + random.nextInt(BenchTables.ACCOUNTS);
                }
                Arrays.sort(aids); // one lock order for every transaction: accounts ascending, then teller, then branch
                int tid = 1 + random.nextInt(BenchTables.TELLERS);
                int bid = 1 + random.nextInt(BenchTables.BRANCHES);
                int delta = random.nextInt(-5000, 5001);
                try {
                    for (int aid : aids) {
                        account.setInt(1, delta);
                        account.setInt(2, aid);
                        account.addBatch();
                        history.setInt(1, tid);
                        history.setInt(2, bid);
                        history.setInt(3, aid);
                        history.setInt(4, delta);
                        history.setString(5, filler);
                        history.addBatch();
                    }
                    account.executeBatch();
                    teller.setInt(1, delta);
                    teller.setInt(2, tid);
                    teller.executeUpdate();
                    branch.setInt(1, delta);
                    branch.setInt(2, bid);
                    branch.executeUpdate();
                    history.executeBatch();
                    c.commit();
                    committed.incrementAndGet();
                } catch (SQLException e) {
                    c.rollback();
                    account.clearBatch();
                    history.clearBatch();
                    if (!retriable(e)) {
                        throw e;
                    }
                    retries.incrementAndGet();
                }
            }
        } catch (Exception e) {
            fail(e);
        }
    }

    private static boolean retriable(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.equals("40001") || state.equals("40P01"));
    }

    private static String filler(ThreadLocalRandom random, int bytes) {
        char[] chars = new char[bytes];
        for (int i = 0; i < bytes; i++) {
            chars[i] = (char) ('a' + random.nextInt(26));
        }
        return new String(chars);
    }

    private void fail(Exception e) {
        if (failure == null) {
            failure = e;
        }
        running = false;
    }
}
