package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.format.Lsn;
import io.rdmarepl.format.RecordCapacityException;
import io.rdmarepl.format.codec.RecordEncoder;
import io.rdmarepl.format.codec.RelationWriter;
import io.rdmarepl.format.codec.RowWriter;
import io.rdmarepl.format.codec.TransactionDescriptor;
import io.rdmarepl.shipper.ship.ShipEvent;
import io.rdmarepl.shipper.ship.ShipPipeline;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The native engine's initial copy: every published table read with {@code COPY ... TO STDOUT} (text format) inside
 * the snapshot the slot exported when it was created, so a transaction that committed before the slot's consistent
 * point is in the copy and a later one streams after it. Values go into the change stream as the server's text
 * output, exactly as pgoutput sends them when streaming (the session pins the same output settings as the
 * replication connection).
 *
 * <p>Shipped as chunks of about {@code snapshot.chunk.bytes}, each its own replica transaction carrying the consistent
 * point as commit LSN: the first one opens with every table's Relation and one Truncate emptying them all on the
 * standby (a copy cut short and taken again leaves nothing behind). Rows are published as they are encoded, so
 * nothing holds a chunk in memory, and a chunk's Begin goes out before anyone knows whether it is the last: every
 * chunk is flagged {@link TransactionDescriptor#BEGIN_SNAPSHOT_CHUNK_FLAG}, and an empty unflagged transaction closes
 * the copy. The standby's position, and the acknowledgement that confirms the slot, move only with that one. A copy
 * without a single row is one unflagged transaction: the Relations and the Truncate.
 */
final class NativeInitialCopy {
    private static final Logger LOG = LoggerFactory.getLogger(NativeInitialCopy.class);
    private static final String SESSION = "SET DateStyle = ISO; SET IntervalStyle = postgres; SET extra_float_digits = 3;"
            + " SET bytea_output = hex; SET TimeZone = 'UTC'; SET client_encoding = 'UTF8'";
    private static final String COLUMNS = """
            SELECT a.attname, a.atttypid, a.atttypmod,
                   CASE WHEN tn.nspname = 'pg_catalog' THEN pg_catalog.quote_ident(t.typname)
                        ELSE pg_catalog.format('%I.%I', tn.nspname, t.typname) END,
                   c.relreplident = 'f' OR COALESCE(a.attnum = ANY (i.indkey), false),
                   c.relreplident, c.relkind
              FROM pg_catalog.pg_class c
              JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
              JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid
              JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
              JOIN pg_catalog.pg_namespace tn ON tn.oid = t.typnamespace
              LEFT JOIN pg_catalog.pg_index i ON i.indrelid = c.oid
                   AND ((c.relreplident = 'd' AND i.indisprimary) OR (c.relreplident = 'i' AND i.indisreplident))
             WHERE n.nspname = ? AND c.relname = ? AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
             ORDER BY a.attnum""";

    /** A published table as the copy reads it. */
    private record Table(String schema, String name, int oid, char identity, boolean partitioned, List<String> columns,
                         int[] typeOids, int[] typeModifiers, String[] typeNames, boolean[] keys) {
        String qualified() {
            return ReplicationCommands.quoteIdentifier(schema) + "." + ReplicationCommands.quoteIdentifier(name);
        }
    }

    private final ShipPipeline pipeline;
    private final long chunkBytes;
    private final RecordEncoder encoder = new RecordEncoder();
    private final CopyTextRow row = new CopyTextRow();
    private final java.util.function.IntSupplier encodeInsert = this::encodeInsert;
    private Table copying;
    private ByteBuffer scratch = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
    /** Begin and Commit records, kept apart from {@link #scratch}, which may hold the record that opens a chunk. */
    private final ByteBuffer frames = ByteBuffer.allocateDirect(256).order(ByteOrder.LITTLE_ENDIAN);
    private ByteBuffer text = ByteBuffer.wrap(new byte[0]);
    private long lsn;
    private long timeUs;
    private long chunkBytesSoFar;
    private boolean chunkOpen;
    private static final long PROGRESS_LOG_NS = java.util.concurrent.TimeUnit.SECONDS.toNanos(5);

    private volatile long rows; // read by /status
    private volatile long bytes;
    private volatile String table;
    private volatile long tableRows;
    private volatile int tablesDone;
    private volatile int tablesTotal;
    private volatile long estimatedRows;
    private volatile long startNs;
    private long lastLogNs;
    /** The Relation and Truncate records that open the copy, held until the first row (or the end) says how to ship them. */
    private final List<byte[]> header = new ArrayList<>();
    private boolean headerShipped;

    NativeInitialCopy(ShipPipeline pipeline, long chunkBytes) {
        this.pipeline = pipeline;
        this.chunkBytes = chunkBytes;
    }

    /**
     * Copies {@code tables} (schema, name) as of {@code snapshotName}, shipping at {@code consistentPoint}.
     *
     * @param connection a fresh connection to the primary, used for nothing else meanwhile
     */
    void run(Connection connection, List<String[]> tables, String snapshotName, long consistentPoint) throws SQLException {
        this.lsn = consistentPoint;
        this.timeUs = System.currentTimeMillis() * 1000L;
        this.startNs = System.nanoTime();
        this.lastLogNs = startNs;
        try (Statement session = connection.createStatement()) {
            session.execute(SESSION);
        }
        connection.setAutoCommit(false);
        try (Statement snapshot = connection.createStatement()) {
            snapshot.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
            snapshot.execute("SET TRANSACTION SNAPSHOT '" + snapshotName.replace("'", "''") + "'");
        }
        List<Table> described = new ArrayList<>();
        for (String[] t : tables) {
            described.add(describe(connection, t[0], t[1]));
        }
        tablesTotal = described.size();
        estimatedRows = estimateRows(connection, described);
        header.clear();
        headerShipped = false;
        int[] ids = new int[described.size()];
        for (int i = 0; i < ids.length; i++) {
            Table t = described.get(i);
            hold(encodeRelation(t));
            ids[i] = t.oid();
        }
        if (ids.length > 0) {
            hold(encodeWithRoom(() -> encoder.encodeTruncate(scratch, 0, scratch.capacity(), false, false, ids, ids.length)));
        }
        org.postgresql.copy.CopyManager reader = connection.unwrap(PGConnection.class).getCopyAPI();
        for (Table t : described) {
            table = t.qualified();
            tableRows = 0;
            copy(reader, t);
            tablesDone++;
        }
        table = null;
        closeChunk();
        int begin = encoder.encodeBegin(frames, 0, frames.capacity(), 0, lsn, timeUs, 0);
        pipeline.publish(ShipEvent.BEGIN, frames, 0, begin, lsn, 0);
        if (!headerShipped) {
            shipHeader(); // no row at all: the copy is this one transaction
        }
        int commit = encoder.encodeCommit(frames, 0, frames.capacity(), 0, lsn, lsn, timeUs);
        pipeline.publish(ShipEvent.COMMIT, frames, 0, commit, lsn, 0);
        connection.commit();
        connection.setAutoCommit(true);
        LOG.info("initial copy shipped: {} tables, {} rows, {} MB in {} ms at LSN {}", described.size(), rows,
                bytes >> 20, (System.nanoTime() - startNs) / 1_000_000, Lsn.format(lsn));
    }

    private Table describe(Connection connection, String schema, String name) throws SQLException {
        List<String> columns = new ArrayList<>();
        List<int[]> types = new ArrayList<>();
        List<String> typeNames = new ArrayList<>();
        List<Boolean> keys = new ArrayList<>();
        char identity = 'd';
        boolean partitioned = false;
        int oid;
        try (PreparedStatement query = connection.prepareStatement(COLUMNS)) {
            query.setString(1, schema);
            query.setString(2, name);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    columns.add(rs.getString(1));
                    types.add(new int[] {(int) rs.getLong(2), rs.getInt(3)});
                    typeNames.add(rs.getString(4));
                    keys.add(rs.getBoolean(5));
                    identity = rs.getString(6).charAt(0);
                    partitioned = "p".equals(rs.getString(7));
                }
            }
        }
        try (PreparedStatement query = connection.prepareStatement("SELECT pg_catalog.format('%I.%I', ?, ?)::regclass::oid")) {
            query.setString(1, schema);
            query.setString(2, name);
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                oid = (int) rs.getLong(1);
            }
        }
        int n = columns.size();
        int[] oids = new int[n];
        int[] modifiers = new int[n];
        boolean[] key = new boolean[n];
        for (int i = 0; i < n; i++) {
            oids[i] = types.get(i)[0];
            modifiers[i] = types.get(i)[1];
            key[i] = keys.get(i);
        }
        return new Table(schema, name, oid, identity, partitioned, columns, oids, modifiers, typeNames.toArray(String[]::new), key);
    }

    private int encodeRelation(Table t) {
        return encodeWithRoom(() -> {
            RelationWriter writer = encoder.startRelation(scratch, 0, scratch.capacity(), t.oid(), t.schema(), t.name(),
                    t.identity());
            for (int i = 0; i < t.columns().size(); i++) {
                writer.putColumn(t.columns().get(i), t.typeOids()[i], t.typeNames()[i], t.typeModifiers()[i], t.keys()[i]);
            }
            return writer.finish();
        });
    }

    private void copy(org.postgresql.copy.CopyManager reader, Table t) throws SQLException {
        StringBuilder sql = new StringBuilder("COPY (SELECT ");
        for (int i = 0; i < t.columns().size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(ReplicationCommands.quoteIdentifier(t.columns().get(i)));
        }
        sql.append(" FROM ").append(t.partitioned() ? "" : "ONLY ").append(t.qualified()).append(") TO STDOUT");
        long tableRows = 0;
        copying = t;
        CopyOut out = reader.copyOut(sql.toString());
        byte[] line;
        while ((line = out.readFromCopy()) != null) {
            row.parse(line, line.length);
            if (row.fields() != t.columns().size()) {
                throw new IllegalStateException("initial copy of " + t.qualified() + ": a row has " + row.fields()
                        + " fields, the table " + t.columns().size() + " columns");
            }
            if (text.array() != row.text()) {
                text = ByteBuffer.wrap(row.text());
            }
            publish(ShipEvent.BODY, encodeWithRoom(encodeInsert));
            tableRows++;
            rows++;
            if ((rows & 1023) == 0 && System.nanoTime() - lastLogNs >= PROGRESS_LOG_NS) {
                lastLogNs = System.nanoTime();
                LOG.info("initial copy: {}", progress());
            }
        }
        LOG.debug("initial copy: {} rows of {}", tableRows, t.qualified());
    }

    /**
     * Where the copy stands: the table being copied and its rows, tables done of all, rows and encoded bytes so far,
     * the rate, and an ETA from the planner's row estimates ({@code reltuples}; null while the tables were never
     * analyzed).
     */
    java.util.Map<String, Object> progress() {
        java.util.Map<String, Object> p = new java.util.LinkedHashMap<>();
        double seconds = Math.max(1e-3, (System.nanoTime() - startNs) / 1e9);
        long rate = Math.round(rows / seconds);
        p.put("table", table);
        p.put("table_rows", tableRows);
        p.put("tables_done", tablesDone);
        p.put("tables", tablesTotal);
        p.put("rows", rows);
        p.put("bytes", bytes);
        p.put("rows_per_s", rate);
        p.put("bytes_per_s", Math.round(bytes / seconds));
        p.put("estimated_rows", estimatedRows > 0 ? estimatedRows : null);
        p.put("eta_s", estimatedRows > 0 && rate > 0 ? Math.max(0, (estimatedRows - rows) / rate) : null);
        return p;
    }

    private static long estimateRows(Connection connection, List<Table> tables) throws SQLException {
        long total = 0;
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT GREATEST(c.reltuples, 0)::bigint FROM pg_catalog.pg_class c WHERE c.oid = ?::oid")) {
            for (Table t : tables) {
                query.setLong(1, Integer.toUnsignedLong(t.oid()));
                try (ResultSet rs = query.executeQuery()) {
                    total += rs.next() ? rs.getLong(1) : 0;
                }
            }
        }
        return total;
    }

    /** Encodes the parsed {@link #row} as an Insert into {@link #copying}: one supplier for every row, no lambda per row. */
    private int encodeInsert() {
        Table t = copying;
        RowWriter writer = encoder.startInsert(scratch, 0, scratch.capacity(), t.oid());
        for (int c = 0; c < row.fields(); c++) {
            if (row.isNull(c)) {
                writer.putNull();
                continue;
            }
            int start = row.start(c);
            int length = row.end(c) - start;
            switch (ColumnKind.ofTypeOid(t.typeOids()[c])) {
                case BOOL -> writer.putBool(length == 1 && row.text()[start] == 't');
                case INT2 -> writer.putInt2((short) integer(t, c, start, length));
                case INT4 -> writer.putInt4((int) integer(t, c, start, length));
                case INT8 -> writer.putInt8(integer(t, c, start, length));
                default -> writer.putTextFallback(t.typeOids()[c], text, start, length);
            }
        }
        return writer.finish();
    }

    private long integer(Table t, int column, int start, int length) {
        byte[] b = row.text();
        int i = start;
        int end = start + length;
        boolean negative = length > 0 && b[i] == '-';
        if (negative) {
            i++;
        }
        if (i == end) {
            throw notInteger(t, column, start, length);
        }
        long value = 0;
        for (; i < end; i++) {
            int digit = b[i] - '0';
            if (digit < 0 || digit > 9) {
                throw notInteger(t, column, start, length);
            }
            value = value * 10 - digit; // accumulate negatively: Long.MIN_VALUE has no positive twin
        }
        return negative ? value : -value;
    }

    private IllegalStateException notInteger(Table t, int column, int start, int length) {
        return new IllegalStateException("initial copy of " + t.qualified() + ", column " + t.columns().get(column)
                + ": '" + new String(row.text(), start, length, java.nio.charset.StandardCharsets.UTF_8) + "' is not an integer");
    }

    /** Encodes into the scratch buffer, growing it until the record fits. */
    private int encodeWithRoom(java.util.function.IntSupplier encode) {
        while (true) {
            try {
                return encode.getAsInt();
            } catch (RecordCapacityException e) {
                if (scratch.capacity() >= 1 << 30) {
                    throw e;
                }
                scratch = ByteBuffer.allocateDirect(scratch.capacity() * 2).order(ByteOrder.LITTLE_ENDIAN);
            }
        }
    }

    private void hold(int length) {
        byte[] record = new byte[length];
        scratch.get(0, record);
        header.add(record);
    }

    private void shipHeader() {
        for (byte[] record : header) {
            pipeline.publish(ShipEvent.BODY, ByteBuffer.wrap(record), 0, record.length, lsn, 0);
            chunkBytesSoFar += record.length;
            bytes += record.length;
        }
        headerShipped = true;
    }

    private void publish(int role, int length) {
        if (!chunkOpen) {
            openChunk();
            if (!headerShipped) {
                shipHeader();
            }
        }
        pipeline.publish(role, scratch, 0, length, lsn, 0);
        chunkBytesSoFar += length;
        bytes += length;
        if (chunkBytesSoFar >= chunkBytes && table != null) {
            closeChunk();
        }
    }

    private void openChunk() {
        int length = encoder.encodeBegin(frames, 0, frames.capacity(), 0, lsn, timeUs,
                TransactionDescriptor.BEGIN_SNAPSHOT_CHUNK_FLAG);
        pipeline.publish(ShipEvent.BEGIN, frames, 0, length, lsn, 0);
        chunkOpen = true;
        chunkBytesSoFar = 0;
    }

    /** Ends the open chunk, if one is open; the next record opens another. */
    private void closeChunk() {
        if (!chunkOpen) {
            return;
        }
        int length = encoder.encodeCommit(frames, 0, frames.capacity(), 0, lsn, lsn, timeUs);
        pipeline.publish(ShipEvent.COMMIT, frames, 0, length, lsn, 0);
        chunkOpen = false;
    }
}
