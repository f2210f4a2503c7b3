package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.schema.TableMapping;
import io.rdmarepl.format.codec.TupleView;
import java.util.Arrays;

/**
 * The write sets of the changes pending in a group's batches, for dependency-aware batching. A change's write
 * set is a few 64-bit tokens: one per row key it touches (relation and {@link TableMapping#conflictKey()} values;
 * an UPDATE that moves a row touches its old and its new key), or one token for the whole table when the table
 * has no such key. Two changes conflict when they share a token; a hash collision only adds ordering.
 *
 * <p>For each token the tracker keeps the plan slot (the position of a pending batch in flush order) of the last
 * change that touched it. A change may join the batch at slot {@code s} only if none of its tokens was last
 * touched at a later slot: batches run in slot order and rows within a batch in arrival order, so every pair of
 * conflicting changes then still runs in source order.
 *
 * <p>It also keeps the batch entry of that last change, so that a change of the same row and shape can replace it
 * ({@link #entryIn}).
 *
 * <p>Open addressing over primitive arrays, cleared by bumping a generation: nothing is allocated in steady state.
 */
final class WriteSets {
    private static final long TABLE_WIDE = 0x9E3779B97F4A7C15L;
    private static final int MAX_TOKENS = 2;

    private long[] tokens = new long[1024];
    private int[] slots = new int[1024];
    private int[] entries = new int[1024];
    private int[] generations = new int[1024];
    private int generation = 1;
    private int size;
    private final long[] change = new long[MAX_TOKENS];
    private int changeTokens;

    /** Forgets every pending change (the batches were flushed). */
    void clear() {
        generation++;
        size = 0;
        if (generation == Integer.MAX_VALUE) {
            Arrays.fill(generations, 0);
            generation = 1;
        }
    }

    /** Starts the write set of the next change. */
    void begin() {
        changeTokens = 0;
    }

    /**
     * Adds the row {@code tuple} identifies in {@code mapping}'s table to the current change.
     *
     * @return false when the row's key cannot be read (an unchanged TOASTed key column): order it after everything
     */
    boolean touch(int relationId, TableMapping mapping, TupleView tuple) {
        int[] key = mapping.conflictKey();
        long token;
        if (key == null) {
            token = mix(relationId * TABLE_WIDE);
        } else {
            token = mix(relationId);
            for (int c : key) {
                if (tuple.isUnchangedToast(c)) {
                    return false;
                }
                token = mix(token ^ tuple.valueHash(c));
            }
        }
        if (changeTokens == 0 || change[0] != token) {
            change[changeTokens++] = token;
        }
        return true;
    }

    /** The latest slot any token of the current change was last touched at, or -1. */
    int latestSlot() {
        int latest = -1;
        for (int t = 0; t < changeTokens; t++) {
            int at = find(change[t]);
            if (generations[at] == generation) {
                latest = Math.max(latest, slots[at]);
            }
        }
        return latest;
    }

    /**
     * The batch entry of the last change of the current change's (only) row, if that change is in the batch at
     * {@code slot}; else -1.
     */
    int entryIn(int slot) {
        if (changeTokens != 1) {
            return -1;
        }
        int at = find(change[0]);
        return generations[at] == generation && slots[at] == slot ? entries[at] : -1;
    }

    /**
     * Records that the current change joined the batch at {@code slot} (at or after {@link #latestSlot()}) as its
     * entry {@code entry}.
     */
    void record(int slot, int entry) {
        for (int t = 0; t < changeTokens; t++) {
            int at = find(change[t]);
            if (generations[at] != generation) {
                generations[at] = generation;
                tokens[at] = change[t];
                if (++size * 2 > tokens.length) {
                    grow();
                    at = find(change[t]);
                }
            }
            slots[at] = slot;
            entries[at] = entry;
        }
    }

    private int find(long token) {
        int mask = tokens.length - 1;
        int at = (int) token & mask;
        while (generations[at] == generation && tokens[at] != token) {
            at = (at + 1) & mask;
        }
        return at;
    }

    private void grow() {
        long[] oldTokens = tokens;
        int[] oldSlots = slots;
        int[] oldEntries = entries;
        int[] oldGenerations = generations;
        int live = generation;
        tokens = new long[oldTokens.length * 2];
        slots = new int[tokens.length];
        entries = new int[tokens.length];
        generations = new int[tokens.length];
        generation = 1;
        for (int i = 0; i < oldTokens.length; i++) {
            if (oldGenerations[i] == live) {
                int at = find(oldTokens[i]);
                generations[at] = generation;
                tokens[at] = oldTokens[i];
                slots[at] = oldSlots[i];
                entries[at] = oldEntries[i];
            }
        }
    }

    static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        return h ^ h >>> 33;
    }
}
