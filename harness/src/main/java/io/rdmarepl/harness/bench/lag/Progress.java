package io.rdmarepl.harness.bench.lag;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The progress line on stderr: phase, system, round, time in the phase, and the primary's current commit
 * rate; printed at every phase change and every {@value #EVERY_SECONDS} s within one.
 */
final class Progress implements AutoCloseable {
    static final int EVERY_SECONDS = 5;

    private final PrintWriter err;
    private final int rounds;
    private final Thread ticker;
    private volatile String phase = "start";
    private volatile String system = "";
    private volatile int round;
    private volatile long phaseStartNs = System.nanoTime();
    private volatile LongSupplier committed = () -> 0;
    private long lastCount;
    private long lastNs = System.nanoTime();

    Progress(PrintWriter err, int rounds) {
        this.err = err;
        this.rounds = rounds;
        this.ticker = new Thread(this::tick, "bench-lag-progress");
        ticker.setDaemon(true);
        ticker.start();
    }

    /** A new phase of {@code system} in {@code round}; {@code committed} counts the primary's commits (or 0). */
    synchronized void phase(String phase, String system, int round, LongSupplier committed) {
        this.phase = phase;
        this.system = system;
        this.round = round;
        this.committed = committed;
        this.phaseStartNs = System.nanoTime();
        this.lastCount = committed.getAsLong();
        this.lastNs = phaseStartNs;
        print();
    }

    /** A line of its own (servers starting, the report written...). */
    synchronized void say(String message) {
        err.println("bench lag: " + message);
        err.flush();
    }

    private void tick() {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(TimeUnit.SECONDS.toMillis(EVERY_SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            synchronized (this) {
                if (round > 0) {
                    print();
                }
            }
        }
    }

    private void print() {
        long now = System.nanoTime();
        long count = committed.getAsLong();
        double rate = now > lastNs ? (count - lastCount) * 1e9 / (now - lastNs) : 0;
        lastCount = count;
        lastNs = now;
        err.println(String.format(Locale.ROOT, "bench lag: round %d/%d, %s: %s, %.0f s, %.0f tx/s committed on the primary",
                round, rounds, system, phase, (now - phaseStartNs) / 1e9, rate));
        err.flush();
    }

    /** No more progress lines: the report follows. */
    @Override
    public void close() {
        ticker.interrupt();
        try {
            ticker.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            round = 0;
        }
    }
}
