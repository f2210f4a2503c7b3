package io.rdmarepl.shipper.capture.pgoutput;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A cursor over one pgoutput message in the caller's buffer: big-endian reads at absolute indexes, whatever the
 * buffer's byte order, position or limit, so nothing is duplicated or allocated. Every read first checks that
 * its bytes lie inside the message and fails naming the field otherwise.
 */
final class MessageReader {
    private final DecodeContext context;
    private ByteBuffer buffer;
    private boolean swap;
    private int start;
    private int position;
    private int end;
    private int stringStart;
    private int stringLength;

    MessageReader(DecodeContext context) {
        this.context = context;
    }

    void wrap(ByteBuffer source, int offset, int length) {
        this.buffer = source;
        this.swap = source.order() != ByteOrder.BIG_ENDIAN;
        this.start = offset;
        this.position = offset;
        this.end = offset + length;
    }

    ByteBuffer buffer() {
        return buffer;
    }

    int length() {
        return end - start;
    }

    /** Absolute index of the next byte to read. */
    int position() {
        return position;
    }

    void position(int index) {
        position = index;
    }

    /** Absolute index just past the message. */
    int end() {
        return end;
    }

    int remaining() {
        return end - position;
    }

    byte readByte(String field) {
        need(Byte.BYTES, field);
        return buffer.get(position++);
    }

    /** An unsigned 16-bit count. */
    int readUnsignedShort(String field) {
        need(Short.BYTES, field);
        short value = buffer.getShort(position);
        position += Short.BYTES;
        return (swap ? Short.reverseBytes(value) : value) & 0xFFFF;
    }

    int readInt(String field) {
        need(Integer.BYTES, field);
        int value = buffer.getInt(position);
        position += Integer.BYTES;
        return swap ? Integer.reverseBytes(value) : value;
    }

    long readLong(String field) {
        need(Long.BYTES, field);
        long value = buffer.getLong(position);
        position += Long.BYTES;
        return swap ? Long.reverseBytes(value) : value;
    }

    /** Reads a NUL-terminated String in place; {@link #stringStart()} and {@link #stringLength()} locate its bytes. */
    void readString(String field) {
        for (int at = position; at < end; at++) {
            if (buffer.get(at) == 0) {
                stringStart = position;
                stringLength = at - position;
                position = at + 1;
                return;
            }
        }
        throw context.fail("truncated: " + field + " has no terminating NUL byte in the " + remaining()
            + " bytes left of the " + length() + "-byte message");
    }

    /** Reads a String and copies it into a Java String (control path only). */
    String readJavaString(String field) {
        readString(field);
        byte[] bytes = new byte[stringLength];
        buffer.get(stringStart, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    int stringStart() {
        return stringStart;
    }

    int stringLength() {
        return stringLength;
    }

    /** True if the last String read holds exactly {@code utf8}. */
    boolean stringEquals(byte[] utf8) {
        if (stringLength != utf8.length) {
            return false;
        }
        for (int i = 0; i < utf8.length; i++) {
            if (buffer.get(stringStart + i) != utf8[i]) {
                return false;
            }
        }
        return true;
    }

    /** Skips a length-prefixed byte string's bytes after its length was read. */
    void skip(int length, String field) {
        if (length < 0) {
            throw context.fail(field + " has negative length " + length);
        }
        need(length, field);
        position += length;
    }

    /** Fails unless {@code bytes} bytes remain for {@code field}. */
    void need(long bytes, String field) {
        if (bytes > end - position) {
            throw context.fail("truncated: " + field + " needs " + bytes + " bytes, " + (end - position)
                + " remain of the " + length() + "-byte message");
        }
    }

    /** Fails if bytes remain after the last field. */
    void expectEnd() {
        if (position != end) {
            throw context.fail((end - position) + " unexpected bytes after the last field of the "
                + length() + "-byte message");
        }
    }
}
