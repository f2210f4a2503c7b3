package io.rdmarepl.shipper.capture.pgoutput;

import java.nio.charset.StandardCharsets;

/**
 * The fields of an ErrorResponse ({@code 'E'}) or NoticeResponse ({@code 'N'}) PostgreSQL sent.
 * <pre>
 *   body: { fieldType u8, value cstring }* 0
 *   fieldType: S severity (localized), V severity (never localized), C SQLSTATE, M message, D detail,
 *              H hint, W context; the others (P, p, q, s, t, c, d, n, F, L, R) are not kept.
 * </pre>
 * Text is decoded as UTF-8 ({@code client_encoding=UTF8}; during authentication the server has not applied it yet,
 * but its messages there are ASCII unless {@code lc_messages} is translated).
 *
 * @param severity ERROR, FATAL, PANIC, WARNING, NOTICE, ... (the V field when present, else S)
 * @param sqlState five characters, e.g. {@code 28P01}
 * @param message  the primary message
 * @param detail   or null
 * @param hint     or null
 * @param context  or null
 */
public record ServerError(String severity, String sqlState, String message, String detail, String hint, String context) {

    /** SQLSTATE class 28: invalid authorization specification (wrong password, no pg_hba.conf entry). */
    public static final String AUTHORIZATION_CLASS = "28";

    /** Parses the body of an ErrorResponse or NoticeResponse. Allocates (errors are off the hot path). */
    public static ServerError parse(byte[] buffer, int offset, int length) {
        String localizedSeverity = null;
        String severity = null;
        String sqlState = null;
        String message = null;
        String detail = null;
        String hint = null;
        String context = null;
        int position = offset;
        int end = offset + length;
        while (position < end && buffer[position] != 0) {
            byte field = buffer[position++];
            int terminator = position;
            while (terminator < end && buffer[terminator] != 0) {
                terminator++;
            }
            String value = new String(buffer, position, terminator - position, StandardCharsets.UTF_8);
            position = terminator + 1;
            switch (field) {
                case 'S' -> localizedSeverity = value;
                case 'V' -> severity = value;
                case 'C' -> sqlState = value;
                case 'M' -> message = value;
                case 'D' -> detail = value;
                case 'H' -> hint = value;
                case 'W' -> context = value;
                default -> {
                    // position, file, line, routine, schema/table/column/constraint names: not kept
                }
            }
        }
        return new ServerError(severity != null ? severity : localizedSeverity, sqlState, message, detail, hint, context);
    }

    /** Whether the SQLSTATE is in class 28 (authorization). */
    public boolean isAuthorizationFailure() {
        return sqlState != null && sqlState.startsWith(AUTHORIZATION_CLASS);
    }

    /** @return e.g. {@code FATAL 28P01 password authentication failed for user "x" (detail: ...; hint: ...)} */
    public String describe() {
        StringBuilder text = new StringBuilder();
        text.append(severity == null ? "ERROR" : severity).append(' ').append(sqlState == null ? "?????" : sqlState)
            .append(' ').append(message == null ? "(no message)" : message);
        if (detail != null || hint != null) {
            text.append(" (");
            if (detail != null) {
                text.append("detail: ").append(detail);
            }
            if (hint != null) {
                text.append(detail != null ? "; " : "").append("hint: ").append(hint);
            }
            text.append(')');
        }
        return text.toString();
    }

    @Override
    public String toString() {
        return describe();
    }
}
