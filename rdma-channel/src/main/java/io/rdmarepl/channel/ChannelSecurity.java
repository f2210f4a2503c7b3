package io.rdmarepl.channel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The cluster's shared secret. Over {@code rdma://} and {@code softrdma://}, a standby tells a
 * shipper its ring's address and rkey only after the shipper proved the secret (HMAC-SHA256 over a
 * fresh challenge), and the shipper writes only to a standby that proved it back. Never printed.
 */
public final class ChannelSecurity {
    /** Environment variable the command line reads the secret from (hex, or any text of 16+ bytes). */
    public static final String SECRET_ENV = "RDMAREPL_CHANNEL_SECRET";
    /** Shortest secret accepted, in bytes. */
    public static final int MIN_SECRET_BYTES = 16;
    private static final String ALGORITHM = "HmacSHA256";
    private final byte[] secret;

    private ChannelSecurity(byte[] secret) {
        this.secret = secret.clone();
    }

    /** @throws IllegalArgumentException when shorter than {@value #MIN_SECRET_BYTES} bytes (the value is not shown) */
    public static ChannelSecurity ofSecret(byte[] secret) {
        if (secret == null || secret.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("channel secret must be at least " + MIN_SECRET_BYTES + " bytes: got "
                    + (secret == null ? "none" : secret.length + " bytes"));
        }
        return new ChannelSecurity(secret);
    }

    /** Hex digits become their bytes; any other text is taken as UTF-8. */
    public static ChannelSecurity ofText(String text) {
        String trimmed = text == null ? "" : text.strip();
        if (trimmed.length() % 2 == 0 && trimmed.matches("[0-9a-fA-F]+")) {
            return ofSecret(HexFormat.of().parseHex(trimmed));
        }
        return ofSecret(trimmed.getBytes(StandardCharsets.UTF_8));
    }

    /** Reads the secret from a file (first line, trimmed). */
    public static ChannelSecurity fromFile(Path file) {
        try {
            return ofText(Files.readString(file, StandardCharsets.UTF_8).lines().findFirst().orElse(""));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the channel secret from " + file + ": " + e.getMessage(), e);
        }
    }

    /** @return the secret from {@value #SECRET_ENV}, or null when unset */
    public static ChannelSecurity fromEnvironment() {
        String value = System.getenv(SECRET_ENV);
        return value == null || value.isBlank() ? null : ofText(value);
    }

    /** A fresh random secret, hex-encodable with {@link #toHex()} to hand to a child process. */
    public static ChannelSecurity random() {
        byte[] bytes = new byte[32];
        new java.security.SecureRandom().nextBytes(bytes);
        return new ChannelSecurity(bytes);
    }

    /** The secret in hex, for passing to a process this one starts (environment, never arguments). */
    public String toHex() {
        return HexFormat.of().formatHex(secret);
    }

    /** HMAC-SHA256 of {@code message} under the secret. */
    public byte[] sign(byte[] message) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret, ALGORITHM));
            return mac.doFinal(message);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException(ALGORITHM + " is not available in this JVM", e);
        }
    }

    /** Constant-time check of a peer's proof. */
    public boolean verify(byte[] message, byte[] proof) {
        return proof != null && MessageDigest.isEqual(sign(message), proof);
    }

    @Override
    public String toString() {
        return "ChannelSecurity[secret=****** (" + secret.length + " bytes)]";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ChannelSecurity that && MessageDigest.isEqual(secret, that.secret);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(sign(new byte[0]));
    }
}
