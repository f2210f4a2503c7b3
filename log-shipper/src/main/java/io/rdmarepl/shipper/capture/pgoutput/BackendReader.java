package io.rdmarepl.shipper.capture.pgoutput;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Frames backend messages out of the socket into one reused buffer. Every backend message is
 * <pre>
 *   offset size field
 *        0    1 type      'd' CopyData, 'E' ErrorResponse, 'R' Authentication, 'Z' ReadyForQuery, ...
 *        1    4 length    int32, counts itself and the body, not the type byte (so at least 4)
 *        5    n body      length - 4 bytes
 * </pre>
 * One {@code read} of the socket takes as many bytes as are there, so a burst of small messages costs one system
 * call; {@link #hasBufferedMessage()} tells whether the next message is already complete. The buffer is compacted
 * (or simply rewound when drained, the usual case) and grows only when a message larger than it arrives: no
 * allocation per message in steady state. One thread reads.
 *
 * <p>A message stays valid in {@link #array()} / {@link #view()} until the next call of {@link #next()}.
 */
final class BackendReader {
    static final int INITIAL_CAPACITY = 64 * 1024;
    /** See {@link #paceBy}: a stream this late is read in larger bites. */
    static final long LATE_US = 10_000;
    /** ... and one this late (a backlog) in bites as large as a socket read takes. */
    static final long BACKLOG_US = 100_000;
    /** About 25 pgbench transactions of pgoutput, half a millisecond of them at 50,000/s. */
    static final int LATE_READ_BYTES = 16 * 1024;
    /** About 100 pgbench transactions of pgoutput, two milliseconds of them at 50,000/s. */
    static final int BACKLOG_READ_BYTES = 64 * 1024;
    static final long PACE_NS = 500_000;
    /** A backlog is read at least every {@code MAX_PACES * PACE_NS} (4 ms), however little waits. */
    static final int MAX_PACES = 8;
    /** PostgreSQL's own limit on a message (PQ_LARGE_MESSAGE_LIMIT: MaxAllocSize - 1). */
    static final int MAX_MESSAGE_LENGTH = 0x3FFF_FFFE;
    static final int HEADER_LENGTH = Byte.BYTES + Integer.BYTES;

    private final InputStream in;
    /**
     * What the paced reads ask how many bytes wait: the socket itself. Under TLS {@link #in} is the TLS stream, whose
     * {@code available()} counts only what it already decrypted (usually nothing), so a backlog would wait out every
     * step and read one record at a time.
     */
    private final InputStream socket;
    private byte[] buffer;
    private ByteBuffer view;
    /** Start of the current message (its type byte). */
    private int start;
    /** Start of the next message: where the current one ends. */
    private int nextStart;
    /** End of the bytes received so far. */
    private int end;
    private byte type;
    private int bodyOffset;
    private int bodyLength;
    private LongSupplier lateUs;
    private boolean untilSocketFull;
    private int backlogBite = BACKLOG_READ_BYTES;
    /** Under TLS: a paced wait let a bite in, which is read record by record until nothing waits (then cleared). */
    private boolean biting;

    BackendReader(InputStream in) {
        this(in, in, INITIAL_CAPACITY);
    }

    /** @param socket the socket's own stream when {@code in} is a TLS stream over it, else {@code in} */
    BackendReader(InputStream in, InputStream socket) {
        this(in, socket, INITIAL_CAPACITY);
    }

    BackendReader(InputStream in, int initialCapacity) {
        this(in, in, initialCapacity);
    }

    BackendReader(InputStream in, InputStream socket, int initialCapacity) {
        this.in = in;
        this.socket = socket;
        this.buffer = new byte[Math.max(HEADER_LENGTH, initialCapacity)];
        this.view = ByteBuffer.wrap(buffer);
    }

    /**
     * Blocks until the next message is complete in the buffer and makes it current.
     *
     * @return its type byte
     * @throws EOFException when the stream ends, before or inside a message
     * @throws IOException  from the socket, or for a length the protocol does not allow
     */
    byte next() throws IOException {
        view.clear();
        start = nextStart;
        if (start == end) {
            start = 0;
            end = 0;
        }
        fill(HEADER_LENGTH);
        int length = intAt(buffer, start + 1);
        if (length < Integer.BYTES || length > MAX_MESSAGE_LENGTH) {
            throw new IOException("protocol violation: backend message type '" + printable(buffer[start])
                + "' has length " + length + ", outside [4, " + MAX_MESSAGE_LENGTH + "]");
        }
        fill(Byte.BYTES + length);
        type = buffer[start];
        bodyOffset = start + HEADER_LENGTH;
        bodyLength = length - Integer.BYTES;
        nextStart = start + Byte.BYTES + length;
        return type;
    }

    /** Whether a complete message follows the current one already, so that {@link #next()} will not block. */
    boolean hasBufferedMessage() {
        int available = end - nextStart;
        if (available < HEADER_LENGTH) {
            return false;
        }
        int length = intAt(buffer, nextStart + 1);
        return length >= Integer.BYTES && available >= Byte.BYTES + length;
    }

    byte type() {
        return type;
    }

    /** Index of the current message's body in {@link #array()} and {@link #view()}. */
    int bodyOffset() {
        return bodyOffset;
    }

    int bodyLength() {
        return bodyLength;
    }

    byte[] array() {
        return buffer;
    }

    /** Big-endian view of {@link #array()}; replaced when the buffer grows. Position and limit are reset by {@link #next()}. */
    ByteBuffer view() {
        return view;
    }

    int capacity() {
        return buffer.length;
    }

    /**
     * While {@code lateUs} says the stream is late anyway, a read first lets the walsender write more: more than
     * {@link #LATE_US} late, one {@link #PACE_NS} step unless {@link #LATE_READ_BYTES} wait; more than {@link #BACKLOG_US}
     * (a backlog), steps until {@link #BACKLOG_READ_BYTES} wait, at most {@link #MAX_PACES}. A reader that keeps the
     * socket drained makes the walsender send every message on its own: on loopback each send also runs the receiving
     * side and wakes the reader. During a catch-up that was some 57,000 context switches a second for the walsender
     * (PostgreSQL's own apply worker, busy applying, caused 200), and 116 of 356 of its profile's samples in
     * {@code sendto} against 27 of 231. One step before reading 16 KiB brought its CPU from twice PostgreSQL's to 1.6
     * times; up to eight before reading 64 KiB bring it level (8.5–9.8 against 7.7–8.7 ms per 1,000 pgbench
     * transactions, same run, 2026-12-05 11:00 UTC). The long wait is kept to backlogs: a stream only a little late
     * (a hiccup) would carry it into its lag's tail. A stream on time is read at once.
     *
     * <p>With {@code untilSocketFull} a backlog's steps also end at the first that added nothing: a Unix-domain socket
     * holds a few tens of KiB of small messages (its sender's buffer counts each message's overhead), so 64 KiB may
     * never wait there, and the steps would only hold back a walsender that waits for this read. Measured with
     * {@code bench lag --catch-up 15} (2026-12-06 01:10 UTC, same run as PostgreSQL): over the socket, stepping on
     * regardless applied 9,400 tx/s, ending at the first empty step 45,900 (PostgreSQL 45,700); over TCP loopback, whose
     * receive buffer grows to megabytes, ending early made the walsender send small segments again (26 against 17-19
     * ms of CPU per 1,000 transactions), so TCP keeps the fixed steps.
     *
     * <p>TCP with a small receive buffer ({@code capture.receive.buffer.bytes}) keeps the fixed steps, with the bite of
     * {@link #backlogBite}: the window closes while the steps wait, so the walsender's sends coalesce into large
     * segments, as they do toward PostgreSQL's busy apply worker (a Unix-domain socket cannot coalesce: a buffer per
     * message). Measured with {@code bench lag --catch-up 20 --rounds 2}, the TCP runs with {@code --local-connections
     * tcp} (2026-12-07 07:06–07:43 UTC, each against PostgreSQL in the same run): with a 64 KiB buffer the walsender
     * took 15.7–18.3 ms of CPU per 1,000 transactions (PostgreSQL's 15.7–18.0) and the capture thread 3.0–3.8, against
     * 18.4–24.7 and 5.6–8.4 over the socket and 29–31 for the walsender over TCP autotuned. The rates: 0.94–1.15×
     * PostgreSQL's over TCP with the buffer, 0.93–1.06× over the socket, 0.84× over TCP autotuned: within the noise of
     * the socket's, the CPU is not. A 128 KiB buffer never closed under 64 KiB bites (0.93×); a 32 KiB one never held a
     * 64 KiB bite, so every read waited out its steps (0.32×: hence half of a smaller buffer); ending the steps at the
     * first that added nothing, as on the socket, read before the window closed (0.77×).
     */
    void paceBy(LongSupplier lateUs, boolean untilSocketFull, int backlogBite) {
        if (backlogBite < 1) {
            throw new IllegalArgumentException("backlogBite must be positive: " + backlogBite);
        }
        this.lateUs = lateUs;
        this.untilSocketFull = untilSocketFull;
        this.backlogBite = backlogBite;
    }

    private void fill(int needed) throws IOException {
        while (end - start < needed) {
            if (buffer.length - start < needed) {
                makeRoom(needed);
            }
            long late = lateUs == null ? 0 : lateUs.getAsLong();
            if (biting && (late <= LATE_US || !anythingWaits())) {
                biting = false; // the bite is read (or the stream is on time again): the next read may wait
            }
            if (biting) {
                // TLS: a read takes one record, so the bite a wait let in is read on without waiting again
            } else if (late > BACKLOG_US) {
                biting = socket != in;
                int waiting = waiting();
                for (int paces = 0; paces < MAX_PACES && waiting < backlogBite; paces++) {
                    LockSupport.parkNanos(PACE_NS);
                    int now = waiting();
                    if (untilSocketFull && now == waiting) {
                        break; // the socket holds no more: the sender waits for this read
                    }
                    waiting = now;
                }
            } else if (late > LATE_US && waiting() < LATE_READ_BYTES) {
                biting = socket != in;
                LockSupport.parkNanos(PACE_NS);
            }
            int read = in.read(buffer, end, buffer.length - end);
            if (read < 0) {
                throw new EOFException(end == start
                    ? "end of stream"
                    : "end of stream inside a backend message (" + (end - start) + " of " + needed + " bytes received)");
            }
            end += read;
        }
    }

    /** Bytes a read would take without blocking: decrypted and waiting in the TLS stream, plus waiting in the socket. */
    private int waiting() throws IOException {
        return socket == in ? in.available() : in.available() + socket.available();
    }

    /**
     * Whether bytes wait to be read beyond this buffer: decrypted in the TLS stream, or in the socket (encrypted under
     * TLS). Does not block.
     */
    boolean anythingWaits() throws IOException {
        return in.available() > 0 || socket != in && socket.available() > 0;
    }

    /**
     * The bite a backlog is read in ({@link #paceBy}): {@link #BACKLOG_READ_BYTES}, except over TCP with a receive
     * buffer asked smaller than that, then half of it: a bite the window cannot hold would wait out every step.
     *
     * @param receiveBufferBytes {@code capture.receive.buffer.bytes}, 0 for the kernel's autotuning
     * @param unixSocket         whether the connection is a Unix-domain socket (which has no such buffer)
     */
    static int backlogBite(int receiveBufferBytes, boolean unixSocket) {
        if (unixSocket || receiveBufferBytes == 0 || receiveBufferBytes >= BACKLOG_READ_BYTES) {
            return BACKLOG_READ_BYTES;
        }
        return Math.max(1, receiveBufferBytes / 2);
    }

    /** Moves the bytes of the current message to the front, into a larger buffer when they do not fit. */
    private void makeRoom(int needed) {
        int received = end - start;
        if (needed > buffer.length) {
            byte[] larger = new byte[(int) Math.min(Math.max((long) needed, 2L * buffer.length),
                (long) MAX_MESSAGE_LENGTH + Byte.BYTES)];
            System.arraycopy(buffer, start, larger, 0, received);
            buffer = larger;
            view = ByteBuffer.wrap(larger);
        } else {
            System.arraycopy(buffer, start, buffer, 0, received);
        }
        start = 0;
        end = received;
    }

    /** Big-endian int32 from the array, whatever the view's position and limit. */
    static int intAt(byte[] array, int index) {
        return (array[index] & 0xFF) << 24 | (array[index + 1] & 0xFF) << 16 | (array[index + 2] & 0xFF) << 8
            | array[index + 3] & 0xFF;
    }

    static char printable(byte b) {
        return b >= 0x20 && b < 0x7F ? (char) b : '?';
    }
}
