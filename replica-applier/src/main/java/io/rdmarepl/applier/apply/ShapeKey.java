package io.rdmarepl.applier.apply;

import io.rdmarepl.format.ValueTag;
import io.rdmarepl.format.codec.TupleView;
import java.util.Arrays;

/** Bit sets of column indexes (unchanged-TOAST columns of a tuple), as reusable {@code long[]} words. */
final class ShapeKey {
    private ShapeKey() {
    }

    static long[] words(int columns) {
        return new long[Math.max(1, (columns + 63) >>> 6)];
    }

    /** Marks the unchanged-TOAST columns of {@code tuple} in {@code mask} (cleared first); grows it when needed. */
    static long[] toastColumns(TupleView tuple, long[] mask) {
        long[] out = mask.length * 64 >= tuple.columnCount() ? mask : words(tuple.columnCount());
        Arrays.fill(out, 0L);
        for (int c = 0; c < tuple.columnCount(); c++) {
            if (tuple.tag(c) == ValueTag.UNCHANGED_TOAST) {
                out[c >>> 6] |= 1L << c;
            }
        }
        return out;
    }

    static boolean isSet(long[] mask, int column) {
        return mask != null && (column >>> 6) < mask.length && (mask[column >>> 6] & 1L << column) != 0;
    }

    static long[] empty() {
        return new long[1];
    }
}
