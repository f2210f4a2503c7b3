package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.shipper.capture.pgoutput.ReplicationException.Reason;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One exchange of the simple query protocol: Query ({@code 'Q'}, the text as a cstring), then the server's answer
 * up to ReadyForQuery. A walsender runs replication commands (IDENTIFY_SYSTEM, CREATE_REPLICATION_SLOT, SHOW, ...)
 * and, on a {@code replication=database} connection, SQL too.
 * <pre>
 *   'T' RowDescription   int16 columns, then per column: name cstring, table oid int32, attnum int16,
 *                        type oid int32, typlen int16, typmod int32, format int16
 *   'D' DataRow          int16 columns, then per column: int32 length (-1 = NULL), bytes (text format)
 *   'C' CommandComplete  tag cstring        'I' EmptyQueryResponse      'N' NoticeResponse
 *   'E' ErrorResponse    (the exchange still ends with 'Z')
 *   'W' CopyBothResponse int8 format, int16 columns, int16 format per column: START_REPLICATION succeeded
 *   'Z' ReadyForQuery    int8 transaction status
 * </pre>
 */
final class SimpleQuery {
    static final byte QUERY = 'Q';
    static final byte COPY_BOTH_RESPONSE = 'W';

    private SimpleQuery() {
    }

    /**
     * Runs {@code sql}; rows of every result set, in order, as text (null for NULL).
     *
     * @throws ReplicationException with the server's error, or {@link Reason#PROTOCOL} when the command starts a
     *                              COPY (use {@link ReplicationConnection#startLogical} for START_REPLICATION)
     */
    static List<String[]> rows(ReplicationEndpoint endpoint, BackendReader reader, FrontendWriter writer,
        Map<String, String> parameters, String sql) throws IOException {
        writer.begin(QUERY).putCString(sql).send();
        List<String[]> rows = new ArrayList<>();
        ServerError error = null;
        boolean copy = false;
        while (true) {
            byte type = reader.next();
            switch (type) {
                case 'T', 'C', 'I', 'N', 'A' -> {
                    // row shape, completion tag, notices and notifications: nothing to keep
                }
                case 'D' -> rows.add(dataRow(reader));
                case 'S' -> StartupHandshake.putParameter(reader, parameters);
                case 'E' -> error = ServerError.parse(reader.array(), reader.bodyOffset(), reader.bodyLength());
                case 'Z' -> {
                    if (error != null) {
                        throw ReplicationException.fromServer(endpoint, describe(sql), error, false);
                    }
                    return rows;
                }
                case 'G', 'H', COPY_BOTH_RESPONSE -> copy = true;
                default -> throw unexpected(endpoint, type, sql);
            }
            if (copy) {
                throw new ReplicationException(Reason.PROTOCOL, endpoint.title()
                    + ": " + describe(sql) + " started a COPY, which simpleQuery cannot run; the connection is unusable");
            }
        }
    }

    /**
     * Sends START_REPLICATION and waits for CopyBothResponse.
     *
     * @throws ReplicationException with the server's error (slot in use, unknown slot or publication, ...)
     */
    static void startCopyBoth(ReplicationEndpoint endpoint, BackendReader reader, FrontendWriter writer,
        Map<String, String> parameters, String command) throws IOException {
        writer.begin(QUERY).putCString(command).send();
        ServerError error = null;
        while (true) {
            byte type = reader.next();
            switch (type) {
                case COPY_BOTH_RESPONSE -> {
                    return;
                }
                case 'N', 'A', 'T', 'D', 'C', 'I' -> {
                    // nothing to keep
                }
                case 'S' -> StartupHandshake.putParameter(reader, parameters);
                case 'E' -> error = ServerError.parse(reader.array(), reader.bodyOffset(), reader.bodyLength());
                case 'Z' -> {
                    if (error != null) {
                        throw ReplicationException.fromServer(endpoint, describe(command), error, false);
                    }
                    throw new ReplicationException(Reason.PROTOCOL, endpoint.title()
                        + ": " + describe(command) + " ended without starting to stream (no CopyBothResponse)");
                }
                default -> throw unexpected(endpoint, type, command);
            }
        }
    }

    private static String[] dataRow(BackendReader reader) {
        ByteBuffer view = reader.view();
        byte[] array = reader.array();
        int position = reader.bodyOffset();
        int columns = view.getShort(position);
        position += Short.BYTES;
        String[] row = new String[columns];
        for (int column = 0; column < columns; column++) {
            int length = view.getInt(position);
            position += Integer.BYTES;
            if (length >= 0) {
                row[column] = new String(array, position, length, StandardCharsets.UTF_8);
                position += length;
            }
        }
        return row;
    }

    private static ReplicationException unexpected(ReplicationEndpoint endpoint, byte type, String sql) {
        return new ReplicationException(Reason.PROTOCOL, endpoint.title()
            + ": unexpected message type '" + BackendReader.printable(type) + "' in answer to " + describe(sql));
    }

    static String describe(String sql) {
        String oneLine = sql.strip().replaceAll("\\s+", " ");
        return "'" + (oneLine.length() > 200 ? oneLine.substring(0, 200) + "..." : oneLine) + "'";
    }
}
