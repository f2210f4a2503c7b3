package io.rdmarepl.applier.apply;

import java.util.Arrays;

/**
 * A set of non-zero 64-bit tokens: open addressing over one primitive array, reused from segment to segment, so
 * nothing is allocated once it has grown to the largest segment's write set.
 */
final class LongSet {
    private long[] slots = new long[1024];
    private int size;

    void clear() {
        if (size > 0) {
            Arrays.fill(slots, 0L);
            size = 0;
        }
    }

    int size() {
        return size;
    }

    /** Adds {@code token} (never 0). */
    void add(long token) {
        int at = find(token);
        if (slots[at] == 0) {
            slots[at] = token;
            if (++size * 2 > slots.length) {
                grow();
            }
        }
    }

    boolean contains(long token) {
        return slots[find(token)] == token;
    }

    /** The backing array: every non-zero entry is a member (for iterating without an iterator). */
    long[] slots() {
        return slots;
    }

    private int find(long token) {
        int mask = slots.length - 1;
        int at = (int) (token ^ token >>> 32) & mask;
        while (slots[at] != 0 && slots[at] != token) {
            at = (at + 1) & mask;
        }
        return at;
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        for (long token : old) {
            if (token != 0) {
                slots[find(token)] = token;
            }
        }
    }
}
