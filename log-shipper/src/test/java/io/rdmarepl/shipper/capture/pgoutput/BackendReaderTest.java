package io.rdmarepl.shipper.capture.pgoutput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Framing of backend messages: whatever way the bytes arrive, each message comes out whole, once. */
class BackendReaderTest {

    @Test
    void shouldFrameSeveralMessagesArrivingInOneRead() throws IOException {
        byte[] stream = concat(message('d', "first"), message('d', "second"), message('Z', "I"));
        BackendReader reader = new BackendReader(new ChunkedStream(stream, stream.length), 64);

        assertThat(reader.next()).isEqualTo((byte) 'd');
        assertThat(body(reader)).isEqualTo("first");
        assertThat(reader.hasBufferedMessage()).isTrue();
        assertThat(reader.next()).isEqualTo((byte) 'd');
        assertThat(body(reader)).isEqualTo("second");
        assertThat(reader.next()).isEqualTo((byte) 'Z');
        assertThat(body(reader)).isEqualTo("I");
        assertThat(reader.hasBufferedMessage()).isFalse();
    }

    @Test
    void shouldReassembleMessagesArrivingOneByteAtATime() throws IOException {
        byte[] stream = concat(message('d', "split header and body"), message('k', ""));
        BackendReader reader = new BackendReader(new ChunkedStream(stream, 1), 64);

        assertThat(reader.next()).isEqualTo((byte) 'd');
        assertThat(reader.hasBufferedMessage()).isFalse();
        assertThat(body(reader)).isEqualTo("split header and body");
        assertThat(reader.next()).isEqualTo((byte) 'k');
        assertThat(reader.bodyLength()).isZero();
    }

    @Test
    void shouldGrowOnlyForAMessageLargerThanTheBuffer() throws IOException {
        char[] big = new char[1000];
        Arrays.fill(big, 'x');
        byte[] stream = concat(message('d', "small"), message('d', new String(big)), message('d', "after"));
        BackendReader reader = new BackendReader(new ChunkedStream(stream, 7), 64);

        reader.next();
        assertThat(reader.capacity()).isEqualTo(64);
        reader.next();
        assertThat(body(reader)).isEqualTo(new String(big));
        assertThat(reader.capacity()).isGreaterThanOrEqualTo(1005);
        reader.next();
        assertThat(body(reader)).isEqualTo("after");
    }

    @Test
    void shouldCompactWhenAMessageStraddlesTheEndOfTheBuffer() throws IOException {
        byte[] stream = concat(message('d', "0123456789012345678901234567890123456789"),
            message('d', "abcdefghijklmnopqrstuvwxyz"), message('d', "ABCDEFGHIJKLMNOPQRSTUVWXYZ"));
        BackendReader reader = new BackendReader(new ChunkedStream(stream, 50), 64);

        reader.next();
        reader.next();
        assertThat(body(reader)).isEqualTo("abcdefghijklmnopqrstuvwxyz");
        reader.next();
        assertThat(body(reader)).isEqualTo("ABCDEFGHIJKLMNOPQRSTUVWXYZ");
        assertThat(reader.capacity()).isEqualTo(64);
    }

    @Test
    void shouldReportTheEndOfTheStreamInsideAMessage() throws IOException {
        byte[] whole = message('d', "cut short");
        BackendReader reader = new BackendReader(new ChunkedStream(Arrays.copyOf(whole, 8), 3), 64);

        assertThatThrownBy(reader::next).isInstanceOf(EOFException.class).hasMessageContaining("inside a backend message");
    }

    @Test
    void shouldReportTheEndOfTheStreamBetweenMessages() throws IOException {
        BackendReader reader = new BackendReader(new ChunkedStream(message('Z', "I"), 100), 64);
        reader.next();

        assertThatThrownBy(reader::next).isInstanceOf(EOFException.class).hasMessage("end of stream");
    }

    @Test
    void shouldRefuseALengthTheProtocolDoesNotAllow() {
        byte[] bad = {'d', 0, 0, 0, 3};
        BackendReader reader = new BackendReader(new ChunkedStream(bad, 5), 64);

        assertThatThrownBy(reader::next).isInstanceOf(IOException.class).hasMessageContaining("has length 3");
    }

    static byte[] message(char type, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ByteBuffer message = ByteBuffer.allocate(5 + bytes.length);
        message.put((byte) type).putInt(4 + bytes.length).put(bytes);
        return message.array();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static String body(BackendReader reader) {
        return new String(reader.array(), reader.bodyOffset(), reader.bodyLength(), StandardCharsets.UTF_8);
    }

    /** Hands out a byte array at most {@code chunk} bytes per read, like a socket under a slow network. */
    @Test
    void shouldWaitForMoreBeforeEachReadOnlyWhileLateAndStillFrameEveryMessage() throws IOException {
        byte[] stream = concat(message('d', "backlog"), message('d', "late"), message('d', "on time"));
        ChunkedStream in = new ChunkedStream(stream, 4);
        BackendReader reader = new BackendReader(in, 64);
        long[] lateUs = {BackendReader.BACKLOG_US + 1};
        reader.paceBy(() -> lateUs[0], false, BackendReader.BACKLOG_READ_BYTES);

        assertThat(reader.next()).isEqualTo((byte) 'd');
        assertThat(body(reader)).isEqualTo("backlog");
        assertThat(in.availableCalls).as("a backlog looks, then waits up to %d steps for more before each of its %d reads,"
                + " not forever", BackendReader.MAX_PACES, in.reads).isEqualTo((BackendReader.MAX_PACES + 1) * in.reads);
        int looked = in.availableCalls;
        int reads = in.reads;
        lateUs[0] = BackendReader.LATE_US + 1;
        assertThat(reader.next()).isEqualTo((byte) 'd');
        assertThat(body(reader)).isEqualTo("late");
        assertThat(in.availableCalls - looked).as("a stream a little late waits one step before each read")
                .isEqualTo(in.reads - reads);
        looked = in.availableCalls;
        lateUs[0] = 0;
        assertThat(reader.next()).isEqualTo((byte) 'd');
        assertThat(body(reader)).isEqualTo("on time");
        assertThat(in.availableCalls).as("a stream on time is read at once").isEqualTo(looked);
    }

    /** Over a Unix-domain socket a backlog's steps end once one adds nothing: the socket is full, the sender waits. */
    @Test
    void shouldStopWaitingForABacklogOnceTheSocketStopsFillingWhenAskedTo() throws IOException {
        ChunkedStream in = new ChunkedStream(concat(message('d', "backlog")), 4);
        BackendReader reader = new BackendReader(in, 64);
        reader.paceBy(() -> BackendReader.BACKLOG_US + 1, true, BackendReader.BACKLOG_READ_BYTES);

        assertThat(reader.next()).isEqualTo((byte) 'd');
        assertThat(body(reader)).isEqualTo("backlog");
        assertThat(in.availableCalls).as("one look and one step before each of the %d reads", in.reads)
                .isEqualTo(2 * in.reads);
    }

    /**
     * A TCP receive buffer smaller than a bite caps the bite: a backlog whose bite waits is read at once, where the
     * default 64 KiB bite, which such a buffer never holds, would wait out every step.
     */
    @Test
    void shouldReadABacklogAtOnceWhenItsBiteWaits() throws IOException {
        byte[] stream = concat(message('d', "a backlog of some length"));
        ChunkedStream bitten = new ChunkedStream(stream, 8);
        bitten.reportsWaiting = true;
        BackendReader reader = new BackendReader(bitten, 64);
        reader.paceBy(() -> BackendReader.BACKLOG_US + 1, false, 4);

        assertThat(reader.next()).isEqualTo((byte) 'd');
        assertThat(body(reader)).isEqualTo("a backlog of some length");
        assertThat(bitten.availableCalls).as("one look before each of the %d reads, no step", bitten.reads).isEqualTo(bitten.reads);

        ChunkedStream whole = new ChunkedStream(stream, 8);
        whole.reportsWaiting = true;
        BackendReader waiting = new BackendReader(whole, 64);
        waiting.paceBy(() -> BackendReader.BACKLOG_US + 1, false, BackendReader.BACKLOG_READ_BYTES);
        assertThat(waiting.next()).isEqualTo((byte) 'd');
        assertThat(whole.availableCalls).as("a 64 KiB bite never waits here: every step before each read")
                .isEqualTo((BackendReader.MAX_PACES + 1) * whole.reads);
    }

    /** 64 KiB bites, but half a TCP buffer asked smaller than that; a Unix-domain socket has no such buffer. */
    @Test
    void shouldBiteAsMuchAsTheWindowHolds() {
        assertThat(BackendReader.backlogBite(0, false)).as("autotuned").isEqualTo(BackendReader.BACKLOG_READ_BYTES);
        assertThat(BackendReader.backlogBite(65536, false)).as("the default").isEqualTo(BackendReader.BACKLOG_READ_BYTES);
        assertThat(BackendReader.backlogBite(1 << 20, false)).isEqualTo(BackendReader.BACKLOG_READ_BYTES);
        assertThat(BackendReader.backlogBite(32768, false)).isEqualTo(16384);
        assertThat(BackendReader.backlogBite(4096, false)).isEqualTo(2048);
        assertThat(BackendReader.backlogBite(32768, true)).as("a socket ignores the buffer").isEqualTo(BackendReader.BACKLOG_READ_BYTES);
    }

    /**
     * Under TLS the stream read counts only what it decrypted already; the socket under it says what waits, so a
     * backlog waiting there is read without stepping.
     */
    @Test
    void shouldAskTheSocketUnderTlsHowMuchWaits() throws IOException {
        byte[] stream = concat(message('d', "a backlog under TLS"));
        ChunkedStream tls = new ChunkedStream(stream, 8);
        ChunkedStream socket = new ChunkedStream(new byte[0], 1);
        socket.reportsWaiting = true;
        socket.waitingOverride = BackendReader.BACKLOG_READ_BYTES;
        BackendReader reader = new BackendReader(tls, socket, 64);
        reader.paceBy(() -> BackendReader.BACKLOG_US + 1, false, BackendReader.BACKLOG_READ_BYTES);

        assertThat(reader.next()).isEqualTo((byte) 'd');
        assertThat(body(reader)).isEqualTo("a backlog under TLS");
        assertThat(socket.availableCalls).as("one look at the socket before each of the %d reads, no step", tls.reads)
                .isEqualTo(tls.reads);
    }

    /**
     * Under TLS a read takes one record: the bite a paced wait let in is read record by record without waiting again
     * (waiting before every record read a backlog at some 70 transactions a second), and the next wait comes once
     * nothing waits.
     */
    @Test
    void shouldReadABiteUnderTlsRecordByRecordWithoutWaitingAgain() throws IOException {
        byte[] stream = concat(message('d', "a backlog of one long message under TLS"), message('d', "and another"));
        ChunkedStream tls = new ChunkedStream(stream, 8); // a record per read, none decrypted ahead
        int[] looks = {0};
        InputStream socket = new InputStream() {
            @Override
            public int available() {
                looks[0]++;
                return stream.length - tls.position;
            }

            @Override
            public int read() {
                throw new AssertionError("only the TLS stream is read");
            }
        };
        BackendReader reader = new BackendReader(tls, socket, 64);
        reader.paceBy(() -> BackendReader.BACKLOG_US + 1, false, BackendReader.BACKLOG_READ_BYTES);

        assertThat(reader.next()).isEqualTo((byte) 'd');
        assertThat(body(reader)).isEqualTo("a backlog of one long message under TLS");
        assertThat(reader.next()).isEqualTo((byte) 'd');
        assertThat(body(reader)).isEqualTo("and another");
        // the first read: a look and every step (the bite never fills here); each later one: a look, no step
        assertThat(looks[0]).as("looks at the socket over %d reads", tls.reads).isEqualTo(BackendReader.MAX_PACES + tls.reads);
    }

    static final class ChunkedStream extends InputStream {
        private final byte[] bytes;
        private final int chunk;
        int position;
        int availableCalls;
        int reads;
        /** Whether {@link #available()} tells what is left (or {@link #waitingOverride}), or always 0. */
        boolean reportsWaiting;
        int waitingOverride = -1;

        ChunkedStream(byte[] bytes, int chunk) {
            this.bytes = bytes;
            this.chunk = chunk;
        }

        @Override
        public int available() {
            availableCalls++;
            return !reportsWaiting ? 0 : waitingOverride >= 0 ? waitingOverride : bytes.length - position;
        }

        @Override
        public int read() {
            return position < bytes.length ? bytes[position++] & 0xFF : -1;
        }

        @Override
        public int read(byte[] target, int offset, int length) {
            reads++;
            if (position >= bytes.length) {
                return -1;
            }
            int count = Math.min(Math.min(length, chunk), bytes.length - position);
            System.arraycopy(bytes, position, target, offset, count);
            position += count;
            return count;
        }
    }
}
