package io.rdmarepl.shipper.capture.pgoutput;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The output side of the connection. Every frontend message is
 * <pre>
 *   offset size field
 *        0    1 type      'Q' Query, 'p' password / SASL, 'd' CopyData, 'c' CopyDone, 'X' Terminate
 *        1    4 length    int32, counts itself and the body
 *        5    n body
 * </pre>
 * except the StartupMessage and SSLRequest, which have no type byte ({@link #beginUntyped()}).
 *
 * <p>Two ways to write. The message builder ({@link #begin}, {@code put*}, {@link #send()}) serves the thread that
 * opens the connection and runs commands; it allocates little and is not for the hot path. {@link #write} sends a
 * frame the caller built (status updates, goodbye) and is safe from any thread. Both hold {@link #lock()}, the
 * output side's only lock: the reading thread never takes it, except to answer a keepalive. Every message is
 * written whole and flushed at once (TCP_NODELAY is set on the socket).
 */
final class FrontendWriter {
    private final OutputStream out;
    private final ReentrantLock lock = new ReentrantLock();
    private byte[] buffer = new byte[512];
    private int position;
    private int messageStart = -1;

    FrontendWriter(OutputStream out) {
        this.out = out;
    }

    ReentrantLock lock() {
        return lock;
    }

    /** Writes {@code frame[offset, offset + length)} and flushes, under the output lock. */
    void write(byte[] frame, int offset, int length) throws IOException {
        lock.lock();
        try {
            out.write(frame, offset, length);
            out.flush();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Writes a frame only if the output lock is free within {@code timeoutMs}: a goodbye must not wait behind a
     * writer stuck on a full socket.
     *
     * @return whether it was written
     */
    boolean tryWrite(byte[] frame, long timeoutMs) throws IOException {
        try {
            if (!lock.tryLock(timeoutMs, TimeUnit.MILLISECONDS)) {
                return false;
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return false;
        }
        try {
            out.write(frame);
            out.flush();
            return true;
        } finally {
            lock.unlock();
        }
    }

    FrontendWriter begin(byte type) {
        ensure(HEADER);
        buffer[position++] = type;
        return beginBody();
    }

    /** StartupMessage and SSLRequest: a length and a body, no type byte. */
    FrontendWriter beginUntyped() {
        return beginBody();
    }

    FrontendWriter putInt(int value) {
        ensure(Integer.BYTES);
        buffer[position++] = (byte) (value >>> 24);
        buffer[position++] = (byte) (value >>> 16);
        buffer[position++] = (byte) (value >>> 8);
        buffer[position++] = (byte) value;
        return this;
    }

    FrontendWriter putBytes(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buffer, position, bytes.length);
        position += bytes.length;
        return this;
    }

    /** A string as UTF-8 and a terminating zero byte; a string holding a zero byte is refused. */
    FrontendWriter putCString(String text) {
        if (text.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a protocol string cannot hold a zero byte: " + text.replace('\0', '?'));
        }
        putBytes(text.getBytes(StandardCharsets.UTF_8));
        ensure(1);
        buffer[position++] = 0;
        return this;
    }

    FrontendWriter putByte(int value) {
        ensure(1);
        buffer[position++] = (byte) value;
        return this;
    }

    /** Ends the message being built (patches its length) and writes every message built since the last send. */
    void send() throws IOException {
        finishMessage();
        lock.lock();
        try {
            out.write(buffer, 0, position);
            out.flush();
        } finally {
            position = 0;
            lock.unlock();
        }
    }

    private static final int HEADER = Byte.BYTES + Integer.BYTES;

    private FrontendWriter beginBody() {
        finishMessage();
        messageStart = position;
        return putInt(0);
    }

    private void finishMessage() {
        if (messageStart >= 0) {
            int length = position - messageStart;
            buffer[messageStart] = (byte) (length >>> 24);
            buffer[messageStart + 1] = (byte) (length >>> 16);
            buffer[messageStart + 2] = (byte) (length >>> 8);
            buffer[messageStart + 3] = (byte) length;
            messageStart = -1;
        }
    }

    private void ensure(int more) {
        if (buffer.length - position < more) {
            byte[] larger = new byte[Math.max(buffer.length * 2, position + more)];
            System.arraycopy(buffer, 0, larger, 0, position);
            buffer = larger;
        }
    }
}
