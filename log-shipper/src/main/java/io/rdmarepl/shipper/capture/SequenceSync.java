package io.rdmarepl.shipper.capture;

import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.shipper.ship.SequenceBoard;
import io.rdmarepl.shipper.ship.ShipMetrics;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logical decoding carries no sequence state, so the shipper reads it: every {@code sequence.sync.interval.ms},
 * on a thread of its own with a kept connection and a statement timeout, the state of every sequence in the
 * published tables' schemas ({@link PrimarySequences}) goes on the {@link SequenceBoard}, whose changed entries
 * every standby handler ships between transactions, the way heartbeats travel. Capture never waits for it, except
 * at a catch-up marker: {@link #beforeMarker} takes a fresh reading before the marker's transaction is handed
 * over, so a standby holds the fenced primary's final sequences before its applied LSN says "caught up".
 *
 * <p>Readings are taken only while the primary is captured (as heartbeats are sent). A failed reading is logged
 * once, as a line without a stack trace (the primary may just be down), and retried at the next interval; the
 * next success is logged too. A reading whose kept connection was lost is tried once more on a new one at once: a
 * switchover ends every client session on the primary, this one included, just before its marker.
 */
public final class SequenceSync implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SequenceSync.class);
    /** Longest one reading may take on the primary (statement_timeout); the socket gives up a little later. */
    static final Duration STATEMENT_TIMEOUT = Duration.ofSeconds(5);
    /** Longest a marker waits for its fresh reading (one under way may have to finish first). */
    private static final Duration MARKER_WAIT = STATEMENT_TIMEOUT.multipliedBy(3);
    /**
     * How often the sync thread looks whether a reading is due. A reading is due an interval after the last good one,
     * and, until the first good one or after a failed one, at most {@link #RETRY_MS} after the last attempt: a primary
     * not captured yet at start, or briefly unreadable, must not leave the standbys without sequences for a whole
     * (possibly long) interval.
     */
    private static final long TICK_MS = 50;
    private static final long RETRY_MS = 1_000;

    private final ShipperConfig config;
    private final SequenceBoard board;
    private final BooleanSupplier capturing;
    private final ShipMetrics metrics;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "rdmarepl-sequence-sync");
        t.setDaemon(true);
        return t;
    });
    private Connection connection; // the sync thread's only
    private List<String> unreadable = List.of();
    private volatile String lastError;
    private volatile long lastSyncMs;
    private volatile long syncs;
    private long lastAttemptMs; // the sync thread's only
    private long lastGoodMs;
    private volatile long shipped;

    /**
     * @param capturing whether the primary is being captured (and not fenced): readings are taken only then
     */
    public SequenceSync(ShipperConfig config, SequenceBoard board, BooleanSupplier capturing, ShipMetrics metrics) {
        this.config = config;
        this.board = board;
        this.capturing = capturing;
        this.metrics = metrics;
    }

    /** Takes the first reading now, then one every interval. */
    public SequenceSync start() {
        long tickMs = Math.min(TICK_MS, config.sequenceSyncInterval().toMillis());
        thread.scheduleWithFixedDelay(this::tick, 0, tickMs, TimeUnit.MILLISECONDS);
        return this;
    }

    /**
     * On the capture thread, right before a catch-up marker's transaction is handed to the standbys: a fresh
     * reading goes on the board, and so ahead of the marker into every standby's stream. When the primary cannot
     * be read in time the marker passes all the same (a warning says so): promotion then moves the sequences past
     * their last reading by the headroom and rate, as after a failover.
     */
    public void beforeMarker() {
        String failure;
        try {
            Future<Boolean> reading = thread.submit(() -> read("before a catch-up marker"));
            if (reading.get(MARKER_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
            failure = lastError;
        } catch (TimeoutException e) {
            failure = "no reading within " + MARKER_WAIT.toMillis() + " ms";
        } catch (ExecutionException e) {
            failure = String.valueOf(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = "interrupted";
        } catch (RejectedExecutionException e) {
            failure = "the shipper is stopping";
        }
        LOG.warn("the catch-up marker passes without a final reading of the primary's sequences ({}): promotion moves them "
                + "past their last reading by the headroom and rate", failure);
    }

    private void tick() {
        try {
            long nowMs = System.currentTimeMillis();
            long intervalMs = config.sequenceSyncInterval().toMillis();
            boolean due = lastGoodMs == 0 || lastError != null
                    ? nowMs - lastAttemptMs >= Math.min(intervalMs, RETRY_MS)
                    : nowMs - lastGoodMs >= intervalMs;
            if (due && capturing.getAsBoolean()) {
                lastAttemptMs = nowMs;
                if (read("within " + Math.min(intervalMs, RETRY_MS) + " ms")) {
                    lastGoodMs = nowMs;
                }
            }
        } catch (RuntimeException e) { // an exception would cancel the schedule: log it and go on
            LOG.error("reading the primary's sequences failed unexpectedly", e);
        }
    }

    /** Reads every sequence and updates the board; false (and logged once) when the primary could not be read. */
    private boolean read(String when) {
        PrimarySequences.Result result;
        try {
            result = readRetryingOnce();
        } catch (SQLException e) {
            String message = e.getMessage();
            if (lastError == null) {
                LOG.warn("cannot read the primary's sequences ({}); trying again {}", message, when);
            } else {
                LOG.debug("still cannot read the primary's sequences: {}", message);
            }
            lastError = message;
            return false;
        }
        int changed = board.update(result.readings());
        long nowMs = System.currentTimeMillis();
        metrics.sequencesSynced(nowMs, changed);
        shipped += changed;
        syncs++;
        lastSyncMs = nowMs;
        if (lastError != null) {
            LOG.info("reading the primary's sequences again ({} sequences)", result.readings().size());
            lastError = null;
        }
        if (!result.unreadable().equals(unreadable)) {
            unreadable = result.unreadable();
            if (!unreadable.isEmpty()) {
                LOG.warn("user {} may not read sequences {}: their state is not shipped, and a promotion cannot move them "
                        + "past the primary's (GRANT SELECT ON SEQUENCE ... TO {})", config.databaseUser(), unreadable,
                        config.databaseUser());
            }
        }
        return true;
    }

    private PrimarySequences.Result readRetryingOnce() throws SQLException {
        boolean kept = connection != null;
        try {
            return PrimarySequences.read(connection(), config.publicationName());
        } catch (SQLException e) {
            closeConnection();
            if (!kept || !connectionLost(e)) {
                throw e;
            }
            return PrimarySequences.read(connection(), config.publicationName());
        }
    }

    /** The session is gone (ended by an administrator, or the socket broke), not the statement refused. */
    private static boolean connectionLost(SQLException e) {
        String state = e.getSQLState();
        return state == null || state.startsWith("08") || state.equals("57P01");
    }

    private Connection connection() throws SQLException {
        if (connection == null) {
            Connection fresh = PrimaryPreflight.connect(config);
            try {
                fresh.setNetworkTimeout(Runnable::run, (int) STATEMENT_TIMEOUT.plusSeconds(2).toMillis());
                try (Statement statement = fresh.createStatement()) {
                    statement.execute("SET statement_timeout = " + STATEMENT_TIMEOUT.toMillis());
                    statement.execute("SET application_name = 'rdmarepl-shipper-sequences'");
                }
            } catch (SQLException e) {
                fresh.close();
                throw e;
            }
            connection = fresh;
        }
        return connection;
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // broken already: that is why it is closed
            }
            connection = null;
        }
    }

    /** For {@code /status}: how many sequences are read, how many states were shipped, when the last reading was. */
    public Map<String, Object> status() {
        Map<String, Object> status = new LinkedHashMap<>();
        long last = lastSyncMs;
        status.put("interval_ms", config.sequenceSyncInterval().toMillis());
        status.put("tracked", board.size());
        status.put("shipped", shipped);
        status.put("syncs", syncs);
        status.put("last_sync", last == 0 ? null : Instant.ofEpochMilli(last).toString());
        status.put("last_sync_age_ms", last == 0 ? null : System.currentTimeMillis() - last);
        status.put("last_error", lastError);
        return status;
    }

    /** Stops reading: a reading under way finishes (within the statement timeout), then the connection is closed. */
    @Override
    public synchronized void close() {
        if (thread.isShutdown()) {
            return;
        }
        thread.execute(this::closeConnection); // on the sync thread, the connection's only user
        thread.shutdown(); // the periodic reading is cancelled
        try {
            if (!thread.awaitTermination(STATEMENT_TIMEOUT.plusSeconds(2).toMillis(), TimeUnit.MILLISECONDS)) {
                thread.shutdownNow();
            }
        } catch (InterruptedException e) {
            thread.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
