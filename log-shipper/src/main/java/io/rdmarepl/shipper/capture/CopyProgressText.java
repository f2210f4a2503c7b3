package io.rdmarepl.shipper.capture;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A running initial copy in one line, from its {@code copy_progress} document: the shipper's log, and
 * {@code rdmarepl status} (which reads the same document through the coordinator) say it alike.
 * "1 of 4 tables done, 1,234,567 of ~2,000,000 rows, 180.2 MB, 412,000 rows/s, 60.1 MB/s, ETA 2 s; copying
 * public.a (1,200,000 of ~2,000,000 rows, 178.0 MB)".
 */
public final class CopyProgressText {
    private CopyProgressText() {
    }

    public static String line(Map<?, ?> p) {
        StringBuilder s = new StringBuilder();
        s.append(p.get("tables_done")).append(" of ").append(p.get("tables")).append(" tables done, ")
                .append(String.format(Locale.ROOT, "%,d", number(p.get("rows"))));
        if (p.get("estimated_rows") != null) {
            s.append(String.format(Locale.ROOT, " of ~%,d", number(p.get("estimated_rows"))));
        }
        s.append(String.format(Locale.ROOT, " rows, %s, %,d rows/s, %s/s, ETA %s", megabytes(number(p.get("bytes"))),
                number(p.get("rows_per_s")), megabytes(number(p.get("bytes_per_s"))),
                p.get("eta_s") == null ? "unknown" : p.get("eta_s") + " s"));
        if (p.get("copying") instanceof List<?> copying && !copying.isEmpty()) {
            s.append("; copying ");
            for (int i = 0; i < copying.size(); i++) {
                Map<?, ?> t = (Map<?, ?>) copying.get(i);
                s.append(i == 0 ? "" : ", ").append(t.get("table"))
                        .append(String.format(Locale.ROOT, " (%,d", number(t.get("rows"))));
                if (t.get("estimated_rows") != null) {
                    s.append(String.format(Locale.ROOT, " of ~%,d", number(t.get("estimated_rows"))));
                }
                s.append(" rows, ").append(megabytes(number(t.get("bytes")))).append(')');
            }
        }
        return s.toString();
    }

    private static long number(Object value) {
        return value instanceof Number n ? n.longValue() : 0;
    }

    private static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1048576.0);
    }
}
