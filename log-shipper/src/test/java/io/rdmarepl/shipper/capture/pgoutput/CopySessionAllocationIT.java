package io.rdmarepl.shipper.capture.pgoutput;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The copy's row path allocates nothing of its own: a {@link CopySession} run on the test's thread (a table of
 * 200,000 rows, after a warm-up run over the same table) allocates per row only the array pgjdbc returns each COPY
 * row in ({@code CopyOut.readFromCopy()}), whose size the primary computes here.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CopySessionAllocationIT {
    private static final int ROWS = 200_000;
    private static PostgresServer primary;

    @BeforeAll
    static void startPrimary() {
        primary = PostgresServer.builder("copy_alloc").durability(Durability.FAST).start();
        primary.execute("CREATE TABLE rows (id bigint PRIMARY KEY, n int, flag bool, note text, at timestamptz)");
        primary.execute("INSERT INTO rows SELECT g, g % 1000, g % 2 = 0, 'note\t' || g, '2026-12-05 00:00:00+00'::timestamptz"
                + " + g * interval '1 second' FROM generate_series(1, " + ROWS + ") g");
    }

    @AfterAll
    static void stopPrimary() {
        if (primary != null) {
            primary.close();
        }
    }

    @Test
    void aCopiedRowAllocatesNothingButPgjdbcsArray() throws Exception {
        copy(); // warm-up: the JIT compiles the row path
        long allocated = copy();
        long pgjdbcArrays = pgjdbcArrayBytes();
        double perRow = (double) (allocated - pgjdbcArrays) / ROWS;
        assertThat(perRow).as("bytes allocated per row besides pgjdbc's arrays (%d in all, arrays %d)", allocated, pgjdbcArrays)
                .isLessThan(1.0);
    }

    /** One session copying the table on this thread, a consumer handing its chunks back; returns what this thread allocated. */
    private static long copy() throws Exception {
        try (Connection exporter = primary.connect("postgres"); Statement export = exporter.createStatement()) {
            exporter.setAutoCommit(false);
            export.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
            String snapshot;
            try (ResultSet rs = export.executeQuery("SELECT pg_export_snapshot()")) {
                rs.next();
                snapshot = rs.getString(1);
            }
            ConcurrentLinkedQueue<CopyProgress.Table> tables = new ConcurrentLinkedQueue<>();
            BlockingQueue<CopyChunk> filled = new ArrayBlockingQueue<>(3);
            CopySession session = CopySession.open(primary.connect("postgres"), snapshot, tables, filled, 1 << 20, 1 << 20);
            CopyTable table = CopyTable.describe(session.connection(), "public", "rows");
            tables.addAll(new CopyProgress(List.of(table), 1, System.nanoTime()).tables());
            Thread consumer = new Thread(() -> {
                try {
                    for (CopyChunk chunk = filled.take(); !chunk.end(); chunk = filled.take()) {
                        chunk.recycle();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "chunk-consumer");
            consumer.start();
            com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long before = threads.getCurrentThreadAllocatedBytes();
            session.run();
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            consumer.join(10_000);
            assertThat(consumer.isAlive()).as("the session sent its end").isFalse();
            exporter.commit();
            return allocated;
        }
    }

    /** What pgjdbc allocates for the rows: one byte[] per COPY row (the row's text and its newline), 16-byte header, 8-aligned. */
    private static long pgjdbcArrayBytes() throws Exception {
        try (Connection c = primary.connect("postgres"); Statement s = c.createStatement()) {
            s.execute("SET TimeZone = 'UTC'; SET DateStyle = ISO");
            try (ResultSet rs = s.executeQuery("SELECT sum((16 + octet_length(concat_ws(E'\\t', id, n, CASE WHEN flag THEN 't' ELSE 'f' END,"
                    + " replace(note, E'\\t', E'\\\\t'), at)) + 1 + 7) / 8 * 8) FROM rows")) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
