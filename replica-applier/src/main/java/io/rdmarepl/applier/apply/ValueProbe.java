package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.schema.ReplicaColumn;
import io.rdmarepl.applier.schema.SqlNames;
import io.rdmarepl.applier.schema.TableMapping;
import io.rdmarepl.format.ValueTag;
import io.rdmarepl.format.codec.RecordDecoder;
import io.rdmarepl.format.codec.RecordHandler;
import io.rdmarepl.format.codec.RowChangeView;
import io.rdmarepl.format.codec.TupleView;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Finds which column's value the replica refused, after a batch failed with a data exception: PostgreSQL names the
 * type ("value too long for type character(5)") but not the column. Each value of the failed batch's rows is
 * written alone, cast the way the statement casts it, into a temporary column of the replica column's declared type
 * (an assignment, as in the real statement: an explicit cast to {@code character(3)} would cut instead of refuse),
 * until one fails. Control path only: the group was rolled back, and every probe is rolled back too.
 */
final class ValueProbe {
    private static final int LONGEST_VALUE = 120;

    private ValueProbe() {
    }

    /**
     * @return {@code column "c" (character(5)) refused 'abcdef': value too long ...}, or null when every value
     *         passes alone (the failure came from the row as a whole: a constraint, a trigger)
     */
    static String refusedValue(Connection connection, ByteBuffer log, int[] recordOffsets, int entries, int end,
                               TableMapping m, StatementShape shape) throws SQLException {
        ValueBinder binder = new ValueBinder();
        RecordDecoder decoder = new RecordDecoder();
        String[] found = {null};
        SQLException[] failed = {null};
        for (int e = 0; e < entries && found[0] == null && failed[0] == null; e++) {
            decoder.decode(log, recordOffsets[e], end - recordOffsets[e], new RecordHandler() {
                @Override
                public void onInsert(RowChangeView insert) {
                    probe(insert.newTuple(), shape.values());
                }

                @Override
                public void onUpdate(RowChangeView update) {
                    probe(update.newTuple(), shape.values());
                    probe(shape.whereFromOld() ? update.oldTuple() : update.newTuple(), shape.where());
                }

                @Override
                public void onDelete(RowChangeView delete) {
                    probe(delete.oldTuple(), shape.where());
                }

                private void probe(TupleView tuple, int[] columns) {
                    for (int k = 0; k < columns.length && found[0] == null && failed[0] == null; k++) {
                        int c = columns[k];
                        if (tuple.tag(c) == ValueTag.NULL || tuple.tag(c) == ValueTag.UNCHANGED_TOAST) {
                            continue;
                        }
                        ReplicaColumn target = m.column(c);
                        try {
                            found[0] = cast(connection, binder, tuple, c, target);
                        } catch (SQLException ex) {
                            failed[0] = ex;
                        }
                    }
                }
            });
        }
        if (failed[0] != null) {
            throw failed[0];
        }
        return found[0];
    }

    /**
     * Writes {@code value}, a field's text as COPY reads it, alone into a temporary column of {@code target}'s declared
     * type. Null when it passes.
     */
    static String refusedText(Connection connection, String value, ReplicaColumn target) throws SQLException {
        return cast(connection, target, probe -> probe.setString(1, value), () -> value.length() > LONGEST_VALUE
                ? value.substring(0, LONGEST_VALUE) + "..." : value);
    }

    private interface Bind {
        void bind(PreparedStatement probe) throws SQLException;
    }

    private static String cast(Connection connection, ValueBinder binder, TupleView tuple, int column, ReplicaColumn target)
            throws SQLException {
        return cast(connection, target, probe -> binder.bind(probe, 1, tuple, column, null),
                () -> PgText.forMessage(tuple, column, LONGEST_VALUE));
    }

    private static String cast(Connection connection, ReplicaColumn target, Bind bind,
                               java.util.function.Supplier<String> shown) throws SQLException {
        try (Statement create = connection.createStatement()) {
            create.execute("CREATE TEMPORARY TABLE rdmarepl_value_probe (v " + target.declaredType() + ")");
        } catch (SQLException e) {
            connection.rollback();
            throw e;
        }
        try (PreparedStatement probe = connection.prepareStatement(
                "INSERT INTO pg_temp.rdmarepl_value_probe VALUES (?::" + target.castType() + ")")) {
            bind.bind(probe);
            probe.execute();
            connection.rollback();
            return null;
        } catch (SQLException refused) {
            connection.rollback();
            if (refused.getSQLState() == null || refused.getSQLState().startsWith("08")) {
                throw refused;
            }
            String value = shown.get();
            return "column " + SqlNames.quote(target.name()) + " (" + target.declaredType() + ") refused '" + value + "': "
                    + SqlErrors.message(refused);
        }
    }
}
