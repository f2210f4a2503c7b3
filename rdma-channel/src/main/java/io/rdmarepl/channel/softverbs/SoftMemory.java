package io.rdmarepl.channel.softverbs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * Every memory region registered in this JVM, looked up by key on each work request. Copy on
 * write: registration is rare, lookups are a lock-free scan of a handful of regions.
 */
final class SoftMemory {
    private static final long ADDRESS_BASE = 0x0000_1000_0000_0000L;
    private static final SecureRandom KEYS = new SecureRandom();
    private static volatile SoftMr[] regions = new SoftMr[0];
    private static int nextHandle = 1;

    private SoftMemory() {
    }

    static synchronized SoftMr register(SoftPd pd, ByteBuffer buffer, int access) throws IOException {
        if (buffer == null || !buffer.isDirect()) {
            throw new IOException("ibv_reg_mr: EINVAL: softrdma registers direct ByteBuffers only");
        }
        int handle = nextHandle++;
        long address = ADDRESS_BASE + ((long) handle << 32) + (KEYS.nextInt(1 << 16) << 12);
        SoftMr mr = new SoftMr(pd, buffer, address, access, uniqueKey(), uniqueKey(), handle);
        SoftMr[] next = Arrays.copyOf(regions, regions.length + 1);
        next[next.length - 1] = mr;
        regions = next;
        return mr;
    }

    static synchronized void deregister(SoftMr mr) {
        mr.registered = false;
        regions = Arrays.stream(regions).filter(r -> r != mr).toArray(SoftMr[]::new);
    }

    static SoftMr byLkey(int lkey) {
        for (SoftMr mr : regions) {
            if (mr.getLkey() == lkey) {
                return mr;
            }
        }
        return null;
    }

    static SoftMr byRkey(int rkey) {
        for (SoftMr mr : regions) {
            if (mr.getRkey() == rkey) {
                return mr;
            }
        }
        return null;
    }

    private static int uniqueKey() {
        while (true) {
            int key = KEYS.nextInt();
            if (key != 0 && byLkey(key) == null && byRkey(key) == null) {
                return key;
            }
        }
    }
}
