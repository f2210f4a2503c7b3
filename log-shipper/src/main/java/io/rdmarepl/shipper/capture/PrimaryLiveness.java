package io.rdmarepl.shipper.capture;

import io.rdmarepl.shipper.config.ShipperConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Whether the primary answers, checked every heartbeat interval with {@code SELECT 1} on a kept connection.
 * Heartbeats go out only while it does, so the standbys (and the coordinator reading them) see them stop
 * within milliseconds of the primary's death; Debezium itself notices only when its engine has stopped, a
 * few hundred milliseconds later. A failed check marks the primary dead at once; the next answer revives it.
 */
public final class PrimaryLiveness implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PrimaryLiveness.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private final ShipperConfig config;
    private final long intervalNs;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean alive = true;
    private volatile long attemptStartNs;
    private final long overdueNs;
    private Connection connection;

    public PrimaryLiveness(ShipperConfig config, Duration interval) {
        this.config = config;
        this.intervalNs = interval.toNanos();
        this.overdueNs = Math.max(TimeUnit.MILLISECONDS.toNanos(25), intervalNs * 5);
        this.thread = new Thread(this::run, "rdmarepl-primary-liveness");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * The last check answered, and the one under way (if any) has not waited longer than the larger of 25 ms and
     * five intervals: a slow answer only pauses the heartbeats (a hung primary must look dead too), a refused or
     * broken connection stops them until the primary answers again.
     */
    public boolean alive() {
        long started = attemptStartNs;
        return alive && (started == 0 || System.nanoTime() - started < overdueNs);
    }

    private void run() {
        while (running) {
            long start = System.nanoTime();
            attemptStartNs = start;
            try {
                if (connection == null) {
                    connection = PrimaryPreflight.connect(config);
                    // generous: a stall must not break the connection, only a dead or unreachable primary
                    connection.setNetworkTimeout(Runnable::run, (int) TIMEOUT.toMillis());
                }
                try (Statement statement = connection.createStatement()) {
                    statement.execute("SELECT 1");
                }
                if (!alive) {
                    LOG.info("primary answers again: heartbeats resume");
                }
                alive = true;
            } catch (SQLException e) {
                if (alive) {
                    LOG.warn("primary stopped answering ({}): heartbeats stop", e.getMessage());
                }
                alive = false;
                closeConnection();
            } finally {
                attemptStartNs = 0;
            }
            long sleep = intervalNs - (System.nanoTime() - start);
            if (sleep > 0) {
                LockSupport.parkNanos(sleep);
            }
        }
        closeConnection();
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // already broken: that is why it is closed
            }
            connection = null;
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
