package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.schema.ReplicaColumn;
import io.rdmarepl.applier.schema.SqlNames;
import io.rdmarepl.applier.schema.TableMapping;
import io.rdmarepl.format.codec.CopyChunkView;
import io.rdmarepl.format.codec.CopyTextRow;
import io.rdmarepl.format.codec.RecordDecoder;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.ChangeRecords;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Applies a CopyChunk record: the primary's COPY text goes into {@code COPY table (columns) FROM STDIN} (text format)
 * as it is, never parsed on the way. The applier's sessions run with the copy session's output settings (DateStyle
 * ISO, IntervalStyle postgres, extra_float_digits 3, bytea_output hex, client_encoding UTF8; {@link
 * ReplicaDataSource#sessionSql}), so each field reads back through the column type's input function as the value the
 * primary printed.
 *
 * <p>The rows are upserts, as the Inserts of an initial copy's chunk are ({@code ON CONFLICT (pk) DO UPDATE} every other
 * written column): a chunk sent again after a shipper restart meets the rows it wrote. The COPY runs in a savepoint;
 * when it meets a row already there (23505, with a replica primary key) or the table refuses COPY (row-level security,
 * 0A000), it is rolled back to the savepoint and the same bytes go through a temporary table instead: {@code COPY} into
 * {@code pg_temp} (columns of the replica's declared types, dropped at commit), then {@code INSERT INTO table ...
 * SELECT ... FROM} it {@code ON CONFLICT (pk) DO UPDATE}. A table that cannot take COPY at all goes that way from the
 * start: with {@code session_replication_role=origin}, when a trigger or rule fires for the applier (an INSERT fires
 * them as the row path's statements do), or when a column is generated on the replica (left out of the INSERT).
 *
 * <p>Steady state allocates nothing: the SQL is built once per table mapping, and the text is copied into one reused
 * array for pgjdbc.
 */
final class CopyChunkApply {
    private static final String UNIQUE_VIOLATION = "23505";
    private static final String FEATURE_NOT_SUPPORTED = "0A000";
    private static final int LONGEST_ROW = 200;

    /** The SQL of one table and column list. */
    private record Target(int[] columns, String copy, boolean direct, boolean upsert) {
    }

    private final boolean replicaRole;
    private final ApplierMetrics metrics;
    private final Map<TableMapping, Target> targets = new IdentityHashMap<>();
    private byte[] out = new byte[64 << 10];
    private long tempTables;

    CopyChunkApply(boolean replicaRole, ApplierMetrics metrics) {
        this.replicaRole = replicaRole;
        this.metrics = metrics;
    }

    /** The mappings changed (a Relation record, a schema pause): SQL is built again. */
    void forget() {
        targets.clear();
    }

    /**
     * Writes the chunk's rows into {@code m}'s table inside the caller's transaction.
     *
     * @param upsert a row already there is overwritten (an initial copy's chunk), as far as the replica has a primary key
     * @return the rows written
     */
    long apply(Connection connection, TableMapping m, CopyChunkView chunk, boolean upsert) throws SQLException {
        Target target = target(m, chunk);
        int length = chunk.textLength();
        if (out.length < length) {
            out = new byte[Math.max(length, out.length * 2)];
        }
        chunk.buffer().get(chunk.textOffset(), out, 0, length);
        boolean upserts = upsert && m.replicaKey() != null;
        Savepoint before = connection.setSavepoint();
        if (target.direct()) {
            try {
                long copied = copy(connection, target.copy(), length);
                checkRows(m, chunk, copied);
                connection.releaseSavepoint(before);
                metrics.copied(copied);
                return copied;
            } catch (SQLException e) {
                String state = SqlErrors.sqlState(e);
                if (!(upserts && UNIQUE_VIOLATION.equals(state) || FEATURE_NOT_SUPPORTED.equals(state))) {
                    throw e;
                }
                connection.rollback(before);
                metrics.copyFellBack();
            }
        }
        long written = throughTemporaryTable(connection, m, target, chunk, length, upserts);
        connection.releaseSavepoint(before);
        metrics.copied(written);
        return written;
    }

    private long throughTemporaryTable(Connection connection, TableMapping m, Target target, CopyChunkView chunk,
                                       int length, boolean upsert) throws SQLException {
        String temp = "rdmarepl_copy_chunk_" + (++tempTables);
        StringBuilder create = new StringBuilder("CREATE TEMPORARY TABLE ").append(temp).append(" (");
        StringBuilder names = new StringBuilder();
        List<Integer> written = new ArrayList<>();
        for (int k = 0; k < target.columns().length; k++) {
            int c = target.columns()[k];
            ReplicaColumn column = m.column(c);
            String name = SqlNames.quote(m.columnName(c));
            create.append(k == 0 ? "" : ", ").append(name).append(' ').append(column == null ? "text" : column.declaredType());
            names.append(k == 0 ? "" : ", ").append(name);
            if (m.writes(c)) {
                written.add(c);
            }
        }
        create.append(") ON COMMIT DROP");
        try (Statement statement = connection.createStatement()) {
            statement.execute(create.toString());
        }
        long copied = copy(connection, "COPY pg_temp." + temp + " (" + names + ") FROM STDIN", length);
        checkRows(m, chunk, copied);
        StringBuilder insert = new StringBuilder("INSERT INTO ").append(m.qualifiedName()).append(" (");
        StringBuilder select = new StringBuilder();
        for (int k = 0; k < written.size(); k++) {
            String name = SqlNames.quote(m.columnName(written.get(k)));
            insert.append(k == 0 ? "" : ", ").append(name);
            select.append(k == 0 ? "" : ", ").append(name);
        }
        insert.append(')');
        if (m.overridingSystemValue()) {
            insert.append(" OVERRIDING SYSTEM VALUE");
        }
        insert.append(" SELECT ").append(select).append(" FROM pg_temp.").append(temp);
        int[] pk = m.replicaKey();
        if (upsert) {
            insert.append(" ON CONFLICT (");
            for (int k = 0; k < pk.length; k++) {
                insert.append(k == 0 ? "" : ", ").append(SqlNames.quote(m.columnName(pk[k])));
            }
            insert.append(')');
            List<Integer> set = new ArrayList<>();
            for (int c : written) {
                if (!contains(pk, c) && !m.column(c).identityAlways()) {
                    set.add(c);
                }
            }
            if (set.isEmpty()) {
                insert.append(" DO NOTHING");
            } else {
                insert.append(" DO UPDATE SET ");
                for (int k = 0; k < set.size(); k++) {
                    String name = SqlNames.quote(m.columnName(set.get(k)));
                    insert.append(k == 0 ? "" : ", ").append(name).append(" = EXCLUDED.").append(name);
                }
            }
        }
        try (Statement statement = connection.createStatement()) {
            statement.executeUpdate(insert.toString());
        }
        return copied;
    }

    private long copy(Connection connection, String sql, int length) throws SQLException {
        CopyIn in = connection.unwrap(PGConnection.class).getCopyAPI().copyIn(sql);
        try {
            in.writeToCopy(out, 0, length);
            return in.endCopy();
        } catch (SQLException | RuntimeException failed) {
            if (in.isActive()) {
                try {
                    in.cancelCopy();
                } catch (SQLException cancelFailed) {
                    failed.addSuppressed(cancelFailed);
                }
            }
            throw failed;
        }
    }

    private static void checkRows(TableMapping m, CopyChunkView chunk, long copied) {
        if (copied != chunk.rowCount()) {
            throw new IllegalStateException("a CopyChunk of " + m.qualifiedName() + " says " + chunk.rowCount()
                    + " rows, COPY read " + copied + ": the record is corrupt");
        }
    }

    private Target target(TableMapping m, CopyChunkView chunk) {
        Target known = targets.get(m);
        if (known != null && sameColumns(known.columns(), chunk)) {
            return known;
        }
        int[] columns = new int[chunk.columnCount()];
        boolean everyWritten = true;
        for (int k = 0; k < columns.length; k++) {
            columns[k] = chunk.column(k);
            if (columns[k] >= m.columnCount()) {
                throw new IllegalStateException("a CopyChunk of " + m.qualifiedName() + " names column position "
                        + columns[k] + ", its Relation has " + m.columnCount() + " columns: the record is corrupt");
            }
            everyWritten &= m.writes(columns[k]);
        }
        StringBuilder sql = new StringBuilder("COPY ").append(m.qualifiedName()).append(" (");
        for (int k = 0; k < columns.length; k++) {
            sql.append(k == 0 ? "" : ", ").append(SqlNames.quote(m.columnName(columns[k])));
        }
        boolean direct = replicaRole && !m.firesForApplier() && everyWritten && columns.length > 0;
        Target target = new Target(columns, sql.append(") FROM STDIN").toString(), direct, m.replicaKey() != null);
        targets.put(m, target);
        return target;
    }

    private static boolean sameColumns(int[] columns, CopyChunkView chunk) {
        if (columns.length != chunk.columnCount()) {
            return false;
        }
        for (int k = 0; k < columns.length; k++) {
            if (columns[k] != chunk.column(k)) {
                return false;
            }
        }
        return true;
    }

    private static boolean contains(int[] values, int v) {
        for (int x : values) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }

    /**
     * A CopyChunk's COPY failed: a value the replica refused (class 22, 42) is named by the row the server's CONTEXT
     * points at (the transaction is rolled back first); a row already there without upsert (no replica primary key, a
     * unique index) pauses as an INSERT would.
     */
    static ApplyFailure failure(SQLException e, ReplicaSession session, TableMapping copying, ByteBuffer log, int recordOffset,
                                int end, long failedTx, long failedLsn) {
        String table = copying.qualifiedName();
        FailureCategory category = SqlErrors.classify(e);
        String message = SqlErrors.message(e);
        if (category == FailureCategory.SCHEMA) {
            session.rollback();
            try {
                String refused = refusedRow(session.connection(), e, copying, log, recordOffset, end);
                message = refused != null ? refused : message;
            } catch (SQLException | RuntimeException probeFailed) {
                // the server's message alone
            }
        } else if ("23505".equals(SqlErrors.sqlState(e))) {
            message = "COPY into " + table + " met a row that is already on the replica (" + SqlErrors.detail(e)
                    + ") and the replica table has no primary key to overwrite it by: the replica differs from the primary";
        }
        return new ApplyFailure(category, failedTx, failedLsn, table, null, SqlErrors.sqlState(e),
                message + " (applying CopyChunk to " + table + ")");
    }

    /**
     * Names the row and value the replica refused in the chunk at {@code recordOffset} of {@code log}: the server's
     * CONTEXT says which line ({@code COPY t, line 3, column c: "x"}); that row is read from the chunk's text and each
     * of its values written alone into the column's type ({@link ValueProbe}). Control path only: the transaction was
     * rolled back. Null when the error names no line of this chunk.
     */
    static String refusedRow(Connection connection, SQLException failure, TableMapping m, ByteBuffer log, int recordOffset,
                             int end) throws SQLException {
        int line = SqlErrors.copyLine(failure);
        ChangeRecord decoded = ChangeRecords.decode(new RecordDecoder(), log, recordOffset, end - recordOffset);
        if (!(decoded instanceof ChangeRecord.CopyChunk chunk) || line < 1 || line > chunk.rowCount()) {
            return null;
        }
        int[] columns = chunk.columns().stream().mapToInt(Integer::intValue).toArray();
        byte[] text = chunk.text();
        int rows = chunk.rowCount();
        int start = 0;
        for (int r = 1; r < line; r++) {
            start = indexOf(text, (byte) '\n', start) + 1;
        }
        int stop = indexOf(text, (byte) '\n', start);
        CopyTextRow row = new CopyTextRow().parse(Arrays.copyOfRange(text, start, stop), stop - start);
        String rowText = new String(text, start, Math.min(stop - start, LONGEST_ROW), StandardCharsets.UTF_8)
                + (stop - start > LONGEST_ROW ? "..." : "");
        String where = "row " + line + " of " + rows + " in a CopyChunk of " + m.qualifiedName() + ": " + rowText;
        for (int k = 0; k < columns.length && k < row.fields(); k++) {
            ReplicaColumn column = m.column(columns[k]);
            if (column == null || row.isNull(k)) {
                continue;
            }
            String value = new String(row.text(), row.start(k), row.end(k) - row.start(k), StandardCharsets.UTF_8);
            String refused = ValueProbe.refusedText(connection, value, column);
            if (refused != null) {
                return refused + " (" + where + ")";
            }
        }
        return SqlErrors.message(failure) + " (" + where + ")";
    }

    private static int indexOf(byte[] text, byte b, int from) {
        for (int i = from; i < text.length; i++) {
            if (text[i] == b) {
                return i;
            }
        }
        return text.length;
    }
}
