package io.rdmarepl.shipper.capture.pgoutput;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * A small thread per streaming connection, the walreceiver's timers apart from the reading thread (which blocks on
 * the socket and cannot look at a clock while nothing arrives):
 * <ul>
 *   <li>periodic status: when no status update went out for {@code statusInterval}, the current positions are sent
 *       again, so the server (and {@code pg_stat_replication.reply_time}) hears from us when nothing is
 *       acknowledged;</li>
 *   <li>receive timeout: when no message came from the server for half of {@code receiveTimeout}, a status update
 *       asks for a reply; after the whole of it the connection is closed, which wakes the reader with
 *       {@link ReplicationException.Reason#TIMEOUT}.</li>
 * </ul>
 * It wakes every quarter of the shorter period (2.5 s with the defaults): no CPU to speak of, no allocation.
 * Whether a message arrived is read from the reader's message counter, so the reader pays no clock read.
 */
final class StatusTimer implements Runnable {
    /** What the timer does to the connection. */
    interface Actions {
        void sendPeriodicStatus(boolean replyRequested) throws IOException;

        void receiveTimedOut(long silentMs);

        void timerFailed(IOException failure);
    }

    private final StandbyStatus status;
    private final LongSupplier messagesReceived;
    private final Actions actions;
    private final long statusIntervalNs;
    private final long receiveTimeoutNs;
    private final long tickNs;
    private final Thread thread;
    private volatile boolean stopped;

    StatusTimer(String name, StandbyStatus status, LongSupplier messagesReceived, Actions actions,
        long statusIntervalNs, long receiveTimeoutNs) {
        this.status = status;
        this.messagesReceived = messagesReceived;
        this.actions = actions;
        this.statusIntervalNs = statusIntervalNs;
        this.receiveTimeoutNs = receiveTimeoutNs;
        long shortest = receiveTimeoutNs > 0 ? Math.min(statusIntervalNs, receiveTimeoutNs / 2) : statusIntervalNs;
        this.tickNs = Math.max(TimeUnit.MILLISECONDS.toNanos(1), shortest / 4);
        this.thread = new Thread(this, name);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Stops the thread; it may be stopping itself. Does not wait. */
    void stop() {
        stopped = true;
        LockSupport.unpark(thread);
    }

    @Override
    public void run() {
        long lastCount = messagesReceived.getAsLong();
        long lastArrivalNs = System.nanoTime();
        boolean pinged = false;
        while (!stopped) {
            LockSupport.parkNanos(this, tickNs);
            if (stopped) {
                return;
            }
            long nowNs = System.nanoTime();
            long count = messagesReceived.getAsLong();
            if (count != lastCount) {
                lastCount = count;
                lastArrivalNs = nowNs;
                pinged = false;
            }
            long silentNs = nowNs - lastArrivalNs;
            try {
                if (receiveTimeoutNs > 0 && silentNs >= receiveTimeoutNs) {
                    actions.receiveTimedOut(TimeUnit.NANOSECONDS.toMillis(silentNs));
                    return;
                }
                if (receiveTimeoutNs > 0 && silentNs >= receiveTimeoutNs / 2 && !pinged) {
                    pinged = true;
                    actions.sendPeriodicStatus(true);
                } else if (nowNs - status.lastSentNs() >= statusIntervalNs) {
                    actions.sendPeriodicStatus(false);
                }
            } catch (IOException ex) {
                if (!stopped) {
                    actions.timerFailed(ex);
                }
                return;
            }
        }
    }
}
