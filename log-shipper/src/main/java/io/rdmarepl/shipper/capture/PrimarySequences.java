package io.rdmarepl.shipper.capture;

import io.rdmarepl.shipper.config.InternalSchema;
import io.rdmarepl.shipper.ship.SequenceBoard;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the state of every sequence in the schemas of the publication's tables, owned by a column or not, on the
 * primary: {@code last_value} and {@code is_called} straight from each sequence ({@code pg_sequences} shows no
 * {@code last_value} before the first {@code nextval}, not even after {@code setval(.., false)}), in batches of
 * one {@code UNION ALL} query. Sequences the user may not read are left out and named in {@link Result#unreadable()}.
 */
final class PrimarySequences {
    private static final int BATCH = 500;
    private static final String LIST = """
            SELECT n.nspname, c.relname, pg_catalog.format('%I.%I', n.nspname, c.relname),
                   pg_catalog.has_sequence_privilege(c.oid, 'SELECT')
              FROM pg_catalog.pg_class c
              JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
             WHERE c.relkind = 'S' AND n.nspname <> ?
               AND n.nspname IN (SELECT schemaname FROM pg_catalog.pg_publication_tables WHERE pubname = ?)
             ORDER BY 1, 2""";

    /** What one reading found. */
    record Result(List<SequenceBoard.Reading> readings, List<String> unreadable) {
    }

    private PrimarySequences() {
    }

    static Result read(Connection connection, String publication) throws SQLException {
        List<String[]> names = new ArrayList<>();
        List<String> unreadable = new ArrayList<>();
        try (PreparedStatement list = connection.prepareStatement(LIST)) {
            list.setString(1, InternalSchema.NAME);
            list.setString(2, publication);
            try (ResultSet rows = list.executeQuery()) {
                while (rows.next()) {
                    if (rows.getBoolean(4)) {
                        names.add(new String[] {rows.getString(1), rows.getString(2), rows.getString(3)});
                    } else {
                        unreadable.add(rows.getString(3));
                    }
                }
            }
        }
        List<SequenceBoard.Reading> readings = new ArrayList<>(names.size());
        for (int from = 0; from < names.size(); from += BATCH) {
            List<String[]> batch = names.subList(from, Math.min(names.size(), from + BATCH));
            StringBuilder sql = new StringBuilder();
            for (int i = 0; i < batch.size(); i++) {
                sql.append(i == 0 ? "" : " UNION ALL ").append("SELECT ").append(i)
                        .append(", last_value, is_called FROM ").append(batch.get(i)[2]);
            }
            long readTimeUs = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
            SequenceBoard.Reading[] read = new SequenceBoard.Reading[batch.size()];
            try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql.toString())) {
                while (rows.next()) {
                    String[] name = batch.get(rows.getInt(1));
                    read[rows.getInt(1)] = new SequenceBoard.Reading(name[0], name[1], rows.getLong(2), rows.getBoolean(3),
                            readTimeUs);
                }
            }
            readings.addAll(List.of(read));
        }
        return new Result(readings, unreadable);
    }
}
