package io.rdmarepl.channel.ring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Ordered (acquire/release) access to little-endian words of a direct buffer shared with another
 * thread or process. Plain fields go through the buffer itself; only the words that publish or
 * observe progress need ordering.
 */
final class Ordered {
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private Ordered() {
    }

    static long getLongAcquire(ByteBuffer buffer, int offset) {
        return (long) LONG.getAcquire(buffer, offset);
    }

    static void putLongRelease(ByteBuffer buffer, int offset, long value) {
        LONG.setRelease(buffer, offset, value);
    }

    /** Stores {@code value}, then fences: a load after it cannot be ordered before the store (Dekker's pattern). */
    static void putLongThenFence(ByteBuffer buffer, int offset, long value) {
        LONG.setVolatile(buffer, offset, value);
        VarHandle.fullFence();
    }

    static int getIntAcquire(ByteBuffer buffer, int offset) {
        return (int) INT.getAcquire(buffer, offset);
    }

    static void putIntRelease(ByteBuffer buffer, int offset, int value) {
        INT.setRelease(buffer, offset, value);
    }

    /** A little-endian view of the same memory, for plain absolute access. */
    static ByteBuffer littleEndian(ByteBuffer buffer) {
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("ring memory must be a direct buffer (mapped or registered)");
        }
        return buffer.duplicate().clear().order(ByteOrder.LITTLE_ENDIAN);
    }
}
