package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.shipper.capture.pgoutput.ReplicationException.Reason;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * StartupMessage, authentication, then the server's session report until ReadyForQuery.
 * <pre>
 *   StartupMessage, no type byte:
 *     offset size field
 *          0    4 length
 *          4    4 protocol   196608 (3.0)
 *          8    n parameters { name cstring, value cstring }* 0
 *       user, database, replication=database (only for a walsender), application_name, client_encoding=UTF8,
 *       options=-c DateStyle=ISO -c ... ({@link SessionSettings})
 *
 *   after AuthenticationOk, until ReadyForQuery ('Z', 1 byte: transaction status):
 *     'S' ParameterStatus   name cstring, value cstring
 *     'K' BackendKeyData    pid int32, secret key int32 (4 to 256 bytes from protocol 3.2 on)
 *     'N' NoticeResponse, 'E' ErrorResponse (e.g. the database does not exist)
 *     'v' NegotiateProtocolVersion: never expected, as no protocol extension is asked for
 * </pre>
 */
final class StartupHandshake {
    static final int PROTOCOL_3_0 = 196608;

    /** What the server reported: its walsender's pid and the parameters it reports (server_version, ...). */
    record Session(int backendPid, Map<String, String> parameters) {
    }

    private StartupHandshake() {
    }

    static Session run(ReplicationEndpoint endpoint, BackendReader reader, FrontendWriter writer) throws IOException {
        writer.beginUntyped()
            .putInt(PROTOCOL_3_0)
            .putCString("user").putCString(endpoint.user())
            .putCString("database").putCString(endpoint.database());
        if (endpoint.replication()) {
            writer.putCString("replication").putCString("database");
        }
        writer.putCString("application_name").putCString(endpoint.applicationName())
            .putCString("client_encoding").putCString("UTF8")
            .putCString("options").putCString(SessionSettings.options(SessionSettings.FIXED))
            .putByte(0)
            .send();
        new Authentication(endpoint, reader, writer).run();

        Map<String, String> parameters = new LinkedHashMap<>();
        int backendPid = 0;
        while (true) {
            byte type = reader.next();
            switch (type) {
                case 'S' -> putParameter(reader, parameters);
                case 'K' -> backendPid = reader.view().getInt(reader.bodyOffset());
                case 'N' -> {
                    // a notice during startup: nothing to act on
                }
                case 'E' -> throw ReplicationException.fromServer(endpoint, "starting the session",
                    ServerError.parse(reader.array(), reader.bodyOffset(), reader.bodyLength()), false);
                case 'Z' -> {
                    return new Session(backendPid, parameters);
                }
                default -> throw new ReplicationException(Reason.PROTOCOL, endpoint.title()
                    + ": unexpected message type '" + BackendReader.printable(type)
                    + "' while starting the session");
            }
        }
    }

    /** ParameterStatus body: name cstring, value cstring. */
    static void putParameter(BackendReader reader, Map<String, String> parameters) {
        byte[] array = reader.array();
        int position = reader.bodyOffset();
        int end = position + reader.bodyLength();
        int nameEnd = position;
        while (nameEnd < end && array[nameEnd] != 0) {
            nameEnd++;
        }
        int valueEnd = nameEnd + 1;
        while (valueEnd < end && array[valueEnd] != 0) {
            valueEnd++;
        }
        if (valueEnd <= end) {
            parameters.put(new String(array, position, nameEnd - position, java.nio.charset.StandardCharsets.UTF_8),
                new String(array, nameEnd + 1, Math.max(0, valueEnd - nameEnd - 1), java.nio.charset.StandardCharsets.UTF_8));
        }
    }
}
