package io.rdmarepl.applier.apply;

import java.sql.SQLException;

/**
 * Sorts SQL errors by SQLState class (PostgreSQL appendix A): connection (08), transaction rollback
 * (40: serialization failure, deadlock), insufficient resources (53), operator intervention (57: admin
 * shutdown, query canceled), system errors (58) and lock not available (55P03) are retriable; syntax or
 * access rule (42: undefined table or column, datatype mismatch) and data exceptions (22: a value the
 * replica's type rejects) are schema problems; the rest (23 integrity, 25 read-only, 28 authorization...) are
 * permanent. Every class but RETRIABLE pauses apply; nothing is skipped.
 */
public final class SqlErrors {
    private SqlErrors() {
    }

    public static FailureCategory classify(SQLException e) {
        String state = sqlState(e);
        if (state == null || state.length() < 2) {
            return FailureCategory.RETRIABLE; // no SQLState: the driver lost the connection (I/O error)
        }
        if (state.equals("55P03")) {
            return FailureCategory.RETRIABLE;
        }
        return switch (state.substring(0, 2)) {
            case "08", "40", "53", "57", "58" -> FailureCategory.RETRIABLE;
            case "42", "22" -> FailureCategory.SCHEMA;
            default -> FailureCategory.PERMANENT;
        };
    }

    /** The most specific SQLState: batch errors carry the server's in their next exception. */
    public static String sqlState(SQLException e) {
        String state = null;
        for (SQLException s = e; s != null; s = s.getNextException()) {
            if (s.getSQLState() != null) {
                state = s.getSQLState();
            }
            if (s.getNextException() == s) {
                break;
            }
        }
        return state;
    }

    /**
     * The row a failed COPY stopped at, from the server's CONTEXT line ({@code COPY t, line 3, column c: "x"}): 1 for
     * the first row; 0 when the error names none.
     */
    public static int copyLine(SQLException e) {
        for (SQLException s = e; s != null; s = s.getNextException()) {
            if (s instanceof org.postgresql.util.PSQLException p && p.getServerErrorMessage() != null
                    && p.getServerErrorMessage().getWhere() != null) {
                java.util.regex.Matcher m = COPY_LINE.matcher(p.getServerErrorMessage().getWhere());
                if (m.find()) {
                    try {
                        return Integer.parseInt(m.group(1));
                    } catch (NumberFormatException tooLong) {
                        return 0;
                    }
                }
            }
            if (s.getNextException() == s) {
                break;
            }
        }
        return 0;
    }

    private static final java.util.regex.Pattern COPY_LINE = java.util.regex.Pattern.compile("COPY [^\n]*?, line (\\d+)");

    /** The server's DETAIL line (e.g. {@code Key (id)=(7) already exists.}), or the message when it has none. */
    public static String detail(SQLException e) {
        SQLException last = e;
        for (SQLException s = e.getNextException(); s != null && s != last; s = s.getNextException()) {
            last = s;
        }
        if (last instanceof org.postgresql.util.PSQLException p && p.getServerErrorMessage() != null
                && p.getServerErrorMessage().getDetail() != null) {
            return p.getServerErrorMessage().getDetail();
        }
        return message(e);
    }

    /** The server's message, without pgjdbc's batch preamble ("Batch entry 0 ... was aborted"). */
    public static String message(SQLException e) {
        SQLException last = e;
        for (SQLException s = e.getNextException(); s != null && s != last; s = s.getNextException()) {
            last = s;
        }
        String message = String.valueOf(last.getMessage());
        int newline = message.indexOf('\n');
        return newline > 0 ? message.substring(0, newline).trim() : message.trim();
    }
}
