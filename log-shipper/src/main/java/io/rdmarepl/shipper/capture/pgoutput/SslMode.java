package io.rdmarepl.shipper.capture.pgoutput;

import java.util.Locale;

/**
 * libpq's {@code sslmode}, for the replication connection.
 * <ul>
 *   <li>{@link #DISABLE}: never TLS.</li>
 *   <li>{@link #PREFER}: ask for TLS; a server that refuses it gets a plain connection. No verification.</li>
 *   <li>{@link #REQUIRE}: TLS or nothing. No verification, except that, as in libpq, a root certificate given
 *       makes it behave as {@link #VERIFY_CA}.</li>
 *   <li>{@link #VERIFY_CA}: TLS, the server's chain must end at the root certificate ({@code sslrootcert}).</li>
 *   <li>{@link #VERIFY_FULL}: {@link #VERIFY_CA}, and the certificate must name the host connected to
 *       (subjectAltName; the common name only when there is no DNS name, as with HTTPS).</li>
 * </ul>
 * libpq's {@code allow} (plain first, TLS if refused) is not offered. Unlike libpq, {@link #PREFER} does not retry
 * in plain text after a failed TLS handshake: the failure is reported.
 */
public enum SslMode {
    DISABLE("disable"),
    PREFER("prefer"),
    REQUIRE("require"),
    VERIFY_CA("verify-ca"),
    VERIFY_FULL("verify-full");

    private final String libpqName;

    SslMode(String libpqName) {
        this.libpqName = libpqName;
    }

    /** @return libpq's spelling, e.g. {@code verify-full} */
    public String libpqName() {
        return libpqName;
    }

    /** Whether an SSLRequest is sent at all. */
    boolean requestsTls() {
        return this != DISABLE;
    }

    /** Whether a server that answers 'N' to the SSLRequest is refused. */
    boolean requiresTls() {
        return this == REQUIRE || this == VERIFY_CA || this == VERIFY_FULL;
    }

    /** Whether the chain is checked against a root certificate. */
    boolean verifiesChain(boolean rootCertificateGiven) {
        return this == VERIFY_CA || this == VERIFY_FULL || this == REQUIRE && rootCertificateGiven;
    }

    boolean verifiesHostName() {
        return this == VERIFY_FULL;
    }

    /**
     * @param text libpq's spelling ({@code verify-ca}); case and {@code _} for {@code -} are forgiven
     * @throws IllegalArgumentException naming the accepted values
     */
    public static SslMode parse(String text) {
        String normalized = text.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        for (SslMode mode : values()) {
            if (mode.libpqName.equals(normalized)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("sslmode '" + text
            + "' is not one of disable, prefer, require, verify-ca, verify-full");
    }

    @Override
    public String toString() {
        return libpqName;
    }
}
