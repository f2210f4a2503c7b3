package io.rdmarepl.shipper.capture.pgoutput;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The client side of SCRAM-SHA-256 (RFC 5802, RFC 7677), as PostgreSQL runs it inside SASL authentication.
 * No channel binding: the GS2 header is {@code n,,} ("the client does not support it"), so the server also
 * accepts it over TLS, and SCRAM-SHA-256-PLUS is never offered.
 * <pre>
 *   client-first   n,,n=USER,r=CNONCE                      USER is empty for PostgreSQL (it uses the startup user)
 *   server-first   r=CNONCE+SNONCE,s=SALT(base64),i=ITERATIONS
 *   client-final   c=biws,r=CNONCE+SNONCE,p=PROOF(base64)  biws = base64("n,,")
 *   server-final   v=SERVER_SIGNATURE(base64)  or  e=ERROR
 *
 *   SaltedPassword  = PBKDF2-HMAC-SHA-256(SASLprep(password), salt, iterations, 32 bytes)
 *   ClientKey       = HMAC(SaltedPassword, "Client Key")      StoredKey = SHA-256(ClientKey)
 *   AuthMessage     = client-first-bare + "," + server-first + "," + client-final-without-proof
 *   ClientProof     = ClientKey XOR HMAC(StoredKey, AuthMessage)
 *   ServerSignature = HMAC(HMAC(SaltedPassword, "Server Key"), AuthMessage)
 * </pre>
 * One instance per authentication exchange, used by one thread.
 */
final class ScramSha256 {
    static final String MECHANISM = "SCRAM-SHA-256";
    private static final String GS2_HEADER = "n,,";
    private static final int NONCE_BYTES = 18;
    private static final int KEY_BITS = 256;

    private final String password;
    private final String clientFirstBare;
    private final String clientNonce;
    private String authMessage;
    private byte[] saltedPassword;

    private ScramSha256(String user, String password, String clientNonce) {
        this.password = SaslPrep.prepareOrKeep(password);
        this.clientNonce = clientNonce;
        this.clientFirstBare = "n=" + escapeUser(user) + ",r=" + clientNonce;
    }

    /** For PostgreSQL: an empty user name and a random nonce (18 random bytes, base64, as libpq). */
    static ScramSha256 forPostgres(String password) {
        byte[] nonce = new byte[NONCE_BYTES];
        new SecureRandom().nextBytes(nonce);
        return new ScramSha256("", password, Base64.getEncoder().encodeToString(nonce));
    }

    /** With a chosen user name and nonce: for RFC test vectors. */
    static ScramSha256 withNonce(String user, String password, String clientNonce) {
        return new ScramSha256(user, password, clientNonce);
    }

    String clientFirstMessage() {
        return GS2_HEADER + clientFirstBare;
    }

    /**
     * @param serverFirst the server's first message
     * @return the client's final message, with the proof
     * @throws IllegalStateException when the server's message is malformed or does not extend our nonce
     */
    String clientFinalMessage(String serverFirst) {
        String nonce = attribute(serverFirst, 'r');
        String salt = attribute(serverFirst, 's');
        String iterationText = attribute(serverFirst, 'i');
        if (!nonce.startsWith(clientNonce) || nonce.length() == clientNonce.length()) {
            throw new IllegalStateException("SCRAM: the server's nonce does not extend the client's: " + serverFirst);
        }
        int iterations;
        try {
            iterations = Integer.parseInt(iterationText);
        } catch (NumberFormatException ex) {
            throw new IllegalStateException("SCRAM: iteration count is not a number: " + serverFirst, ex);
        }
        if (iterations < 1) {
            throw new IllegalStateException("SCRAM: iteration count must be positive: " + serverFirst);
        }
        byte[] saltBytes;
        try {
            saltBytes = Base64.getDecoder().decode(salt);
        } catch (IllegalArgumentException ex) {
            throw new IllegalStateException("SCRAM: salt is not base64: " + serverFirst, ex);
        }
        String withoutProof = "c=" + Base64.getEncoder().encodeToString(GS2_HEADER.getBytes(StandardCharsets.US_ASCII))
            + ",r=" + nonce;
        authMessage = clientFirstBare + "," + serverFirst + "," + withoutProof;
        saltedPassword = pbkdf2(password, saltBytes, iterations);
        byte[] clientKey = hmac(saltedPassword, "Client Key");
        byte[] storedKey = sha256(clientKey);
        byte[] clientSignature = hmac(storedKey, authMessage);
        byte[] proof = new byte[clientKey.length];
        for (int i = 0; i < proof.length; i++) {
            proof[i] = (byte) (clientKey[i] ^ clientSignature[i]);
        }
        return withoutProof + ",p=" + Base64.getEncoder().encodeToString(proof);
    }

    /**
     * @throws IllegalStateException when the server reports an error or its signature is not the one the password
     *                               gives (a server that does not know the password)
     */
    void verifyServerFinal(String serverFinal) {
        if (authMessage == null) {
            throw new IllegalStateException("SCRAM: server-final before server-first");
        }
        if (serverFinal.startsWith("e=")) {
            throw new IllegalStateException("SCRAM: the server reported " + serverFinal.substring(2));
        }
        byte[] expected = hmac(hmac(saltedPassword, "Server Key"), authMessage);
        byte[] actual;
        try {
            actual = Base64.getDecoder().decode(attribute(serverFinal, 'v'));
        } catch (IllegalArgumentException ex) {
            throw new IllegalStateException("SCRAM: server signature is not base64: " + serverFinal, ex);
        }
        if (!MessageDigest.isEqual(expected, actual)) {
            throw new IllegalStateException("SCRAM: the server's signature is wrong (the server does not know the password)");
        }
    }

    private static String attribute(String message, char name) {
        for (String part : message.split(",", -1)) {
            if (part.length() >= 2 && part.charAt(0) == name && part.charAt(1) == '=') {
                return part.substring(2);
            }
        }
        throw new IllegalStateException("SCRAM: attribute '" + name + "' missing in: " + message);
    }

    private static String escapeUser(String user) {
        return user.replace("=", "=3D").replace(",", "=2C");
    }

    private static byte[] pbkdf2(String password, byte[] salt, int iterations) {
        PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, iterations, KEY_BITS);
        try {
            // SunJCE encodes the password chars as UTF-8, which is what SCRAM hashes
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException("SCRAM: PBKDF2WithHmacSHA256 unavailable", ex);
        } finally {
            spec.clearPassword();
        }
    }

    private static byte[] hmac(byte[] key, String text) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException("SCRAM: HmacSHA256 unavailable", ex);
        }
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException("SCRAM: SHA-256 unavailable", ex);
        }
    }
}
