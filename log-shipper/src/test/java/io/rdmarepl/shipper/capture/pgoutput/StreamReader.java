package io.rdmarepl.shipper.capture.pgoutput;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The capture thread of a test: calls {@link ReplicationConnection#poll} in a loop and keeps a copy of every
 * message, to be taken with a deadline. Counts entries to and returns from poll, so a test knows when the reader
 * is blocked inside it.
 */
final class StreamReader implements XLogDataHandler, AutoCloseable {
    /** One message as received: kind 'w' (payload copied) or 'k'. */
    record Received(char kind, long walStart, long walEnd, byte[] payload, boolean replyRequested) {
        char pgoutputType() {
            return (char) payload[0];
        }

        ByteBuffer body() {
            return ByteBuffer.wrap(payload);
        }
    }

    private final ReplicationConnection connection;
    private final Thread thread;
    private final BlockingQueue<Received> xlogData = new LinkedBlockingQueue<>();
    private final BlockingQueue<Received> keepalives = new LinkedBlockingQueue<>();
    final AtomicLong pollsEntered = new AtomicLong();
    final AtomicLong pollsReturned = new AtomicLong();
    private volatile Throwable failure;

    StreamReader(ReplicationConnection connection) {
        this.connection = connection;
        this.thread = new Thread(this::run, "test-stream-reader");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void run() {
        try {
            while (true) {
                pollsEntered.incrementAndGet();
                connection.poll(this);
                pollsReturned.incrementAndGet();
            }
        } catch (Throwable ex) {
            failure = ex;
        }
    }

    @Override
    public void onXLogData(long walStart, long walEnd, long sendTimeUs, ByteBuffer payload, int offset, int length) {
        byte[] copy = new byte[length];
        payload.get(offset, copy, 0, length);
        xlogData.add(new Received('w', walStart, walEnd, copy, false));
    }

    @Override
    public void onKeepalive(long walEnd, long sendTimeUs, boolean replyRequested) {
        keepalives.add(new Received('k', 0, walEnd, null, replyRequested));
    }

    /** The next XLogData, waiting at most {@code timeout}. */
    Received nextXLogData(Duration timeout) throws InterruptedException {
        Received next = xlogData.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (next == null) {
            throw new AssertionError("no XLogData within " + timeout.toMillis() + " ms; reader failure: " + failure);
        }
        return next;
    }

    /** XLogData up to and including the next Commit ('C'). */
    List<Received> nextTransaction(Duration timeout) throws InterruptedException {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        List<Received> transaction = new ArrayList<>();
        while (transaction.isEmpty() || transaction.get(transaction.size() - 1).pgoutputType() != 'C') {
            transaction.add(nextXLogData(Duration.ofNanos(Math.max(1, deadlineNs - System.nanoTime()))));
        }
        return transaction;
    }

    Received nextKeepalive(Duration timeout) throws InterruptedException {
        Received next = keepalives.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (next == null) {
            throw new AssertionError("no keepalive within " + timeout.toMillis() + " ms; reader failure: " + failure);
        }
        return next;
    }

    /** Whether the thread is inside poll now (entered and not returned). */
    boolean insidePoll() {
        return pollsEntered.get() == pollsReturned.get() + 1 && failure == null;
    }

    /** What ended the reader, waiting at most {@code timeout} for it to end. */
    Throwable awaitFailure(Duration timeout) throws InterruptedException {
        thread.join(timeout.toMillis());
        if (thread.isAlive()) {
            throw new AssertionError("the reader is still blocked " + timeout.toMillis() + " ms later");
        }
        return failure;
    }

    Throwable failure() {
        return failure;
    }

    @Override
    public void close() throws InterruptedException {
        connection.close();
        thread.join(TimeUnit.SECONDS.toMillis(10));
    }
}
