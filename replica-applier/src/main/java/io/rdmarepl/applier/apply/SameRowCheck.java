package io.rdmarepl.applier.apply;

import io.rdmarepl.format.codec.RecordDecoder;
import io.rdmarepl.format.codec.RecordHandler;
import io.rdmarepl.format.codec.RowChangeView;
import io.rdmarepl.format.codec.TupleView;
import java.nio.ByteBuffer;

/**
 * Confirms that two row changes write the same row before one supersedes the other: their {@link WriteSets} tokens
 * are equal, but a token is a hash, and a collision here would drop another row's update. Compares the conflict-key
 * columns' encodings byte for byte, reading the earlier change again from the group's log with a decoder of its own.
 */
final class SameRowCheck implements RecordHandler {
    private final RecordDecoder decoder = new RecordDecoder();
    private TupleView current;
    private int[] key;
    private boolean same;

    /** Whether the insert or update at {@code earlierOffset} of {@code log} has the key of {@code current} in {@code key}. */
    boolean sameKey(ByteBuffer log, int earlierOffset, int end, int[] key, TupleView current) {
        this.current = current;
        this.key = key;
        this.same = false;
        decoder.decode(log, earlierOffset, end - earlierOffset, this);
        return same;
    }

    @Override
    public void onInsert(RowChangeView earlier) {
        compare(earlier.newTuple());
    }

    @Override
    public void onUpdate(RowChangeView earlier) {
        compare(earlier.newTuple());
    }

    private void compare(TupleView row) {
        for (int c : key) {
            if (!row.sameEncoding(c, current, c)) {
                return;
            }
        }
        same = true;
    }
}
