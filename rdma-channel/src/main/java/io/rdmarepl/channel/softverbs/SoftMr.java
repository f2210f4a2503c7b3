package io.rdmarepl.channel.softverbs;

import com.ibm.disni.verbs.IbvMr;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A registered memory region: a direct buffer, a synthetic address range (no native address is
 * ever computed, so no {@code --add-exports} is needed) and random lkey / rkey.
 */
final class SoftMr extends IbvMr {
    final ByteBuffer memory;
    final SoftPd pd;
    final int accessFlags;
    volatile boolean registered = true;

    SoftMr(SoftPd pd, ByteBuffer memory, long address, int accessFlags, int lkey, int rkey, int handle) throws IOException {
        super(pd.getContext(), address, memory.capacity(), accessFlags, lkey, rkey, handle);
        this.pd = pd;
        this.memory = memory.duplicate().clear().order(ByteOrder.LITTLE_ENDIAN);
        this.accessFlags = accessFlags;
    }

    /** @return the offset into {@link #memory} of {@code [address, address + length)}, or -1 when outside */
    int offsetOf(long address, int length) {
        long offset = address - getAddr();
        if (!registered || length < 0 || offset < 0 || offset + length > getLength()) {
            return -1;
        }
        return (int) offset;
    }

    boolean allows(int access) {
        return (accessFlags & access) == access;
    }
}
