package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.schema.SchemaMismatchException;
import io.rdmarepl.applier.schema.SequenceReadings;
import io.rdmarepl.applier.schema.SqlNames;
import io.rdmarepl.format.codec.SequenceView;
import java.sql.SQLException;

/**
 * Applies Sequence records: sets the replica's sequence to exactly the primary's state
 * ({@code setval(seq, last_value, is_called)}), in stream order, and remembers the reading for promotion. A
 * sequence the replica lacks pauses apply like a missing table. {@code setval} is not transactional: a group
 * rolled back after it keeps the state, and applying the group again sets the same state. Allocates (the names for
 * JDBC, a reading): a sequence's state comes at most once per sync interval, not per row.
 */
final class ShippedSequences {
    private final SequenceReadings readings;

    ShippedSequences(SequenceReadings readings) {
        this.readings = readings;
    }

    /**
     * @throws SchemaMismatchException naming the sequence when the replica has none of that name
     */
    void set(SequenceView sequence, ReplicaSession session) throws SQLException, SchemaMismatchException {
        String schema = sequence.schema();
        String name = sequence.name();
        if (!session.setSequence(schema, name, sequence.lastValue(), sequence.isCalled())) {
            String qualified = SqlNames.describe(schema, name);
            throw new SchemaMismatchException(qualified, null, "the replica has no sequence " + qualified
                    + " (the primary ships its state: create it on the replica)");
        }
        readings.record(schema, name, sequence.lastValue(), sequence.isCalled(), sequence.readTimeUs());
    }

    SequenceReadings readings() {
        return readings;
    }
}
