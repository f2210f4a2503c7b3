package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.shipper.capture.pgoutput.ReplicationException.Reason;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Answers the server's authentication requests until AuthenticationOk. Request ({@code 'R'}) bodies:
 * <pre>
 *   offset size field
 *        0    4 code     0 Ok, 3 CleartextPassword, 5 MD5Password, 10 SASL, 11 SASLContinue, 12 SASLFinal
 *                        (2 Kerberos, 7/8 GSS, 9 SSPI: not supported)
 *        4    n data     5: 4-byte salt; 10: mechanism names, each a cstring, then a zero byte;
 *                        11, 12: the SCRAM server message
 * </pre>
 * Answers are PasswordMessage / SASLInitialResponse / SASLResponse, all type {@code 'p'}:
 * <pre>
 *   password:            cstring password, or "md5" + md5hex(md5hex(password + user) + salt)
 *   SASLInitialResponse: cstring mechanism, int32 length of the client-first message, the message
 *   SASLResponse:        the client-final message (no length of its own)
 * </pre>
 */
final class Authentication {
    static final byte AUTHENTICATION = 'R';
    static final byte PASSWORD = 'p';
    static final int OK = 0;
    static final int CLEARTEXT = 3;
    static final int MD5 = 5;
    static final int SASL = 10;
    static final int SASL_CONTINUE = 11;
    static final int SASL_FINAL = 12;

    private final ReplicationEndpoint endpoint;
    private final BackendReader reader;
    private final FrontendWriter writer;
    private ScramSha256 scram;
    private boolean scramVerified;
    private String method = "none";

    Authentication(ReplicationEndpoint endpoint, BackendReader reader, FrontendWriter writer) {
        this.endpoint = endpoint;
        this.reader = reader;
        this.writer = writer;
    }

    /** Reads and answers messages until AuthenticationOk. */
    void run() throws IOException {
        while (true) {
            byte type = reader.next();
            if (type == 'E') {
                throw ReplicationException.fromServer(endpoint, "authentication (" + method + ")",
                    ServerError.parse(reader.array(), reader.bodyOffset(), reader.bodyLength()), true);
            }
            if (type == 'N') {
                continue;
            }
            if (type != AUTHENTICATION || reader.bodyLength() < Integer.BYTES) {
                throw new ReplicationException(Reason.PROTOCOL, endpoint.title()
                    + ": expected an authentication request, got message type '" + BackendReader.printable(type) + "'");
            }
            ByteBuffer view = reader.view();
            int body = reader.bodyOffset();
            int code = view.getInt(body);
            int dataOffset = body + Integer.BYTES;
            int dataLength = reader.bodyLength() - Integer.BYTES;
            switch (code) {
                case OK -> {
                    if (scram != null && !scramVerified) {
                        throw failure("the server accepted SCRAM without proving it knows the password (no SASLFinal)");
                    }
                    return;
                }
                case CLEARTEXT -> {
                    method = "password";
                    writer.begin(PASSWORD).putCString(password()).send();
                }
                case MD5 -> {
                    method = "md5";
                    byte[] salt = new byte[4];
                    System.arraycopy(reader.array(), dataOffset, salt, 0, salt.length);
                    writer.begin(PASSWORD).putCString(md5(password(), endpoint.user(), salt)).send();
                }
                case SASL -> startSasl(mechanisms(reader.array(), dataOffset, dataLength));
                case SASL_CONTINUE -> continueSasl(text(dataOffset, dataLength));
                case SASL_FINAL -> finishSasl(text(dataOffset, dataLength));
                default -> throw failure("the server asks for authentication method " + name(code)
                    + ", which this client does not support (use scram-sha-256, md5, password or trust in pg_hba.conf)");
            }
        }
    }

    private void startSasl(List<String> mechanisms) throws IOException {
        method = ScramSha256.MECHANISM;
        if (!mechanisms.contains(ScramSha256.MECHANISM)) {
            throw failure("the server offers SASL mechanisms " + mechanisms + ", none of which is " + ScramSha256.MECHANISM);
        }
        scram = ScramSha256.forPostgres(password());
        byte[] first = scram.clientFirstMessage().getBytes(StandardCharsets.UTF_8);
        writer.begin(PASSWORD).putCString(ScramSha256.MECHANISM).putInt(first.length).putBytes(first).send();
    }

    private void continueSasl(String serverFirst) throws IOException {
        requireScram();
        String clientFinal;
        try {
            clientFinal = scram.clientFinalMessage(serverFirst);
        } catch (IllegalStateException ex) {
            throw failure(ex.getMessage());
        }
        writer.begin(PASSWORD).putBytes(clientFinal.getBytes(StandardCharsets.UTF_8)).send();
    }

    private void finishSasl(String serverFinal) throws ReplicationException {
        requireScram();
        try {
            scram.verifyServerFinal(serverFinal);
            scramVerified = true;
        } catch (IllegalStateException ex) {
            throw failure(ex.getMessage());
        }
    }

    private void requireScram() throws ReplicationException {
        if (scram == null) {
            throw new ReplicationException(Reason.PROTOCOL, endpoint.title()
                + ": SASL continuation without a SASL start");
        }
    }

    private String password() throws ReplicationException {
        if (endpoint.password() == null) {
            throw failure("the server asks for a password (" + method + ") but none is configured");
        }
        return endpoint.password();
    }

    private ReplicationException failure(String why) {
        return new ReplicationException(Reason.AUTHENTICATION, endpoint.title()
            + ": authentication failed: " + why);
    }

    private String text(int offset, int length) {
        return new String(reader.array(), offset, length, StandardCharsets.UTF_8);
    }

    static List<String> mechanisms(byte[] buffer, int offset, int length) {
        List<String> names = new ArrayList<>();
        int position = offset;
        int end = offset + length;
        while (position < end && buffer[position] != 0) {
            int terminator = position;
            while (terminator < end && buffer[terminator] != 0) {
                terminator++;
            }
            names.add(new String(buffer, position, terminator - position, StandardCharsets.UTF_8));
            position = terminator + 1;
        }
        return names;
    }

    /** {@code "md5" + md5hex(md5hex(password + user) + salt)}. */
    static String md5(String password, String user, byte[] salt) {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            md5.update(password.getBytes(StandardCharsets.UTF_8));
            md5.update(user.getBytes(StandardCharsets.UTF_8));
            byte[] inner = HexFormat.of().formatHex(md5.digest()).getBytes(StandardCharsets.US_ASCII);
            md5.update(inner);
            md5.update(salt);
            return "md5" + HexFormat.of().formatHex(md5.digest());
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("MD5 unavailable", ex);
        }
    }

    private static String name(int code) {
        return switch (code) {
            case 2 -> "KerberosV5 (2)";
            case 6 -> "SCM credentials (6)";
            case 7 -> "GSSAPI (7)";
            case 8 -> "GSSAPI continuation (8)";
            case 9 -> "SSPI (9)";
            default -> "code " + code;
        };
    }
}
