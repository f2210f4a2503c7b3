package io.rdmarepl.applier.schema;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The highest value applied so far to each sequence-backed column, by sequence name, so promotion can
 * set every sequence past what the primary handed out. A holder is a one-element array raised
 * without allocation, atomically (apply workers share it); {@link #snapshot()} may be read from any thread (values
 * may be a moment old).
 */
public final class SequenceTracker {
    /** Holder value before any row was seen. */
    public static final long NONE = Long.MIN_VALUE;

    private static final VarHandle HOLDER = MethodHandles.arrayElementVarHandle(long[].class);

    private final Map<String, long[]> holders = new ConcurrentHashMap<>();

    /** The holder for {@code sequence}, shared by every column the sequence feeds. */
    public long[] holder(String sequence) {
        return holders.computeIfAbsent(sequence, s -> new long[] {NONE});
    }

    /** Raises {@code holder} to {@code value}; apply workers may observe the same sequence at once. */
    public static void observe(long[] holder, long value) {
        long seen = (long) HOLDER.getVolatile(holder, 0);
        while (value > seen && !HOLDER.compareAndSet(holder, 0, seen, value)) {
            seen = (long) HOLDER.getVolatile(holder, 0);
        }
    }

    /** The highest value seen for {@code sequence}, or {@link #NONE}. */
    public long highest(String sequence) {
        long[] holder = holders.get(sequence);
        return holder == null ? NONE : holder[0];
    }

    public Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        holders.forEach((name, holder) -> {
            if (holder[0] != NONE) {
                out.put(name, holder[0]);
            }
        });
        return out;
    }
}
