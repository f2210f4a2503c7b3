package io.rdmarepl.channel.ring;

import java.nio.ByteBuffer;

/** Deterministic frame contents, so a reader can check every byte it receives. */
public final class Payloads {
    private Payloads() {
    }

    /** Writes the payload of frame {@code number}: the number, then a pattern derived from it. */
    public static void fill(ByteBuffer buffer, int offset, int length, long number) {
        int i = 0;
        if (length >= Long.BYTES) {
            buffer.putLong(offset, number);
            i = Long.BYTES;
        }
        for (; i < length; i++) {
            buffer.put(offset + i, patternByte(number, i));
        }
    }

    /** @return null when the payload is frame {@code number}'s, otherwise what differs */
    public static String check(ByteBuffer buffer, int offset, int length, long number, int expectedLength) {
        if (length != expectedLength) {
            return "frame " + number + " has length " + length + ", expected " + expectedLength;
        }
        int i = 0;
        if (length >= Long.BYTES) {
            long got = buffer.getLong(offset);
            if (got != number) {
                return "frame " + number + " carries number " + got;
            }
            i = Long.BYTES;
        }
        for (; i < length; i++) {
            if (buffer.get(offset + i) != patternByte(number, i)) {
                return "frame " + number + " differs at payload byte " + i;
            }
        }
        return null;
    }

    /** A length in [0, max] that both sides can derive from the frame number. */
    public static int lengthOf(long number, int max) {
        long mixed = (number * 0x9E3779B97F4A7C15L) >>> 33;
        return (int) (mixed % (max + 1));
    }

    private static byte patternByte(long number, int i) {
        return (byte) (number * 31 + i * 7);
    }
}
