package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.shipper.capture.CopyProgressText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a running initial copy stands, per table and in all: rows and encoded bytes read so far, the rate, and an ETA
 * from the planner's row estimates ({@code reltuples}; unknown while the tables were never analyzed). Each table's
 * counters are written by the one session copying it, every {@link #PUBLISH_EVERY_ROWS} rows and when it ends; any
 * thread reads them ({@code /status}, the coordinator's lease renewals, the progress line in the log).
 */
final class CopyProgress {
    /** Rows between two updates of a table's counters: no volatile write per row. */
    static final int PUBLISH_EVERY_ROWS = 1024;

    /** One table's counters. */
    static final class Table {
        private final CopyTable table;
        private volatile long rows;
        private volatile long bytes;
        private volatile long startNs;
        private volatile long endNs;

        private Table(CopyTable table) {
            this.table = table;
        }

        CopyTable table() {
            return table;
        }

        void started(long nowNs) {
            startNs = nowNs;
        }

        /** @param rows all rows read so far, {@code bytes} all encoded bytes */
        void progressed(long rows, long bytes) {
            this.rows = rows;
            this.bytes = bytes;
        }

        void finished(long rows, long bytes, long nowNs) {
            progressed(rows, bytes);
            endNs = nowNs;
        }

        long rows() {
            return rows;
        }

        private String state() {
            return endNs != 0 ? "done" : startNs != 0 ? "copying" : "waiting";
        }

        private Map<String, Object> toMap(boolean withState, long nowNs) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("table", table.displayName());
            if (withState) {
                m.put("state", state());
            }
            m.put("rows", rows);
            m.put("bytes", bytes);
            m.put("estimated_rows", table.estimatedRows() > 0 ? table.estimatedRows() : null);
            long start = startNs;
            long end = endNs;
            m.put("seconds", start == 0 ? null : Math.round(((end != 0 ? end : nowNs) - start) / 1e7) / 100.0);
            return m;
        }
    }

    private final List<Table> tables = new ArrayList<>();
    private final int sessions;
    private final long startNs;
    private volatile long headerBytes;

    CopyProgress(List<CopyTable> copied, int sessions, long startNs) {
        copied.forEach(t -> tables.add(new Table(t)));
        this.sessions = sessions;
        this.startNs = startNs;
    }

    List<Table> tables() {
        return tables;
    }

    /** The Relation and Truncate records that open the copy. */
    void header(long bytes) {
        headerBytes = bytes;
    }

    long rows() {
        long rows = 0;
        for (Table t : tables) {
            rows += t.rows;
        }
        return rows;
    }

    long bytes() {
        long bytes = headerBytes;
        for (Table t : tables) {
            bytes += t.bytes;
        }
        return bytes;
    }

    /**
     * {@code sessions}, {@code tables}, {@code tables_done}, {@code rows}, {@code bytes}, {@code estimated_rows},
     * {@code rows_per_s}, {@code bytes_per_s}, {@code elapsed_s}, {@code eta_s} (null when unknown) and {@code copying}:
     * the tables being copied now, each with its {@code rows}, {@code bytes}, {@code estimated_rows} and {@code seconds}.
     *
     * @param everyTable also {@code per_table}: every table with its {@code state} (waiting, copying, done)
     */
    Map<String, Object> toMap(boolean everyTable, long nowNs) {
        long rows = 0;
        long bytes = headerBytes;
        long estimated = 0;
        long remaining = 0;
        int done = 0;
        List<Map<String, Object>> copying = new ArrayList<>();
        List<Map<String, Object>> all = new ArrayList<>();
        for (Table t : tables) {
            long tableRows = t.rows;
            rows += tableRows;
            bytes += t.bytes;
            estimated += Math.max(t.table.estimatedRows(), tableRows);
            if (t.endNs != 0) {
                done++;
            } else {
                remaining += Math.max(0, t.table.estimatedRows() - tableRows);
                if (t.startNs != 0) {
                    copying.add(t.toMap(false, nowNs));
                }
            }
            if (everyTable) {
                all.add(t.toMap(true, nowNs));
            }
        }
        double seconds = Math.max(1e-3, (nowNs - startNs) / 1e9);
        long rowsPerSecond = Math.round(rows / seconds);
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("sessions", sessions);
        p.put("tables", tables.size());
        p.put("tables_done", done);
        p.put("rows", rows);
        p.put("bytes", bytes);
        p.put("estimated_rows", estimated > 0 ? estimated : null);
        p.put("rows_per_s", rowsPerSecond);
        p.put("bytes_per_s", Math.round(bytes / seconds));
        p.put("elapsed_s", Math.round(seconds * 10) / 10.0);
        p.put("eta_s", estimated > 0 && rowsPerSecond > 0 ? remaining / rowsPerSecond : null);
        p.put("copying", copying);
        if (everyTable) {
            p.put("per_table", all);
        }
        return p;
    }

    /** The progress line of the shipper's log ({@link CopyProgressText}). */
    String line(long nowNs) {
        return CopyProgressText.line(toMap(false, nowNs));
    }
}
