package io.rdmarepl.shipper.capture;

import io.rdmarepl.format.codec.RecordEncoder;
import java.util.Arrays;

/**
 * The tables of consecutive truncates in one transaction, shipped as one Truncate record. pgoutput sends
 * {@code TRUNCATE parent CASCADE} (or {@code TRUNCATE a, b}) as one message naming every table; Debezium splits it
 * into one event per table and drops the CASCADE and RESTART IDENTITY flags, and {@code TRUNCATE parent} alone fails
 * on the standby while a foreign key references it. Truncates with no other change between them leave the same
 * state whether run together or one by one, so joining them is exact, and together they pass the foreign key check.
 */
final class PendingTruncate {
    private int[] relationIds = new int[8];
    private int count;

    /** Adds {@code relationId} (once) to the truncate being gathered. */
    void add(int relationId) {
        for (int i = 0; i < count; i++) {
            if (relationIds[i] == relationId) {
                return;
            }
        }
        if (count == relationIds.length) {
            relationIds = Arrays.copyOf(relationIds, count * 2);
        }
        relationIds[count++] = relationId;
    }

    /** Stages the gathered truncate, if any, as one record and starts a new one. */
    void stage(StagedTransaction staged, RecordEncoder encoder) {
        if (count == 0) {
            return;
        }
        int n = count;
        staged.add(at -> encoder.encodeTruncate(staged.buffer(), at, staged.room(), false, false, relationIds, n));
        count = 0;
    }

    void clear() {
        count = 0;
    }
}
