package io.rdmarepl.shipper.capture.pgoutput;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;

/**
 * A throw-away certificate authority and a server certificate it signed, made in pure Java (DER written by hand,
 * signed with {@code SHA256withRSA}; no keytool, openssl or BouncyCastle), for a PostgreSQL server with
 * {@code ssl = on}. The server certificate names only the IP address {@code 127.0.0.1} (subjectAltName), so a
 * connection to {@code localhost} fails {@code verify-full} and passes {@code verify-ca}.
 *
 * @param rootCert   the authority's certificate, PEM: the client's {@code sslrootcert}
 * @param serverCert the server's certificate, PEM: {@code ssl_cert_file}
 * @param serverKey  the server's private key, PKCS#8 PEM, mode 0600: {@code ssl_key_file}
 */
record TestCertificates(Path rootCert, Path serverCert, Path serverKey) {
    private static final byte[] SHA256_WITH_RSA = {0x06, 0x09, 0x2A, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xF7, 0x0D, 0x01, 0x01, 0x0B};
    private static final byte[] COMMON_NAME = {0x06, 0x03, 0x55, 0x04, 0x03};
    private static final byte[] BASIC_CONSTRAINTS = {0x06, 0x03, 0x55, 0x1D, 0x13};
    private static final byte[] SUBJECT_ALT_NAME = {0x06, 0x03, 0x55, 0x1D, 0x11};
    private static final byte[] DER_NULL = {0x05, 0x00};
    private static final byte[] DER_TRUE = {0x01, 0x01, (byte) 0xFF};
    private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);

    /** A new authority and a server certificate for {@code 127.0.0.1}, written into {@code directory}. */
    static TestCertificates create(Path directory) throws IOException, GeneralSecurityException {
        KeyPair authority = rsa();
        KeyPair server = rsa();
        byte[] rootDer = certificate("rdmarepl test root", "rdmarepl test root", authority, authority.getPrivate(), true);
        byte[] serverDer = certificate("rdmarepl test server", "rdmarepl test root", server, authority.getPrivate(), false);
        Path rootCert = writePem(directory.resolve("root.crt"), "CERTIFICATE", rootDer);
        Path serverCert = writePem(directory.resolve("server.crt"), "CERTIFICATE", serverDer);
        Path serverKey = writePem(directory.resolve("server.key"), "PRIVATE KEY", server.getPrivate().getEncoded());
        Files.setPosixFilePermissions(serverKey, PosixFilePermissions.fromString("rw-------"));
        return new TestCertificates(rootCert, serverCert, serverKey);
    }

    /** Another authority's certificate, which signed nothing the server has: {@code verify-ca} must fail with it. */
    static Path unrelatedRoot(Path directory) throws IOException, GeneralSecurityException {
        KeyPair other = rsa();
        return writePem(directory.resolve("unrelated-root.crt"), "CERTIFICATE",
            certificate("rdmarepl unrelated root", "rdmarepl unrelated root", other, other.getPrivate(), true));
    }

    private static byte[] certificate(String subject, String issuer, KeyPair subjectKeys, PrivateKey issuerKey,
        boolean authority) throws IOException, GeneralSecurityException {
        Instant now = Instant.now();
        byte[] extension = authority
            ? der(0x30, BASIC_CONSTRAINTS, DER_TRUE, der(0x04, der(0x30, DER_TRUE)))
            : der(0x30, SUBJECT_ALT_NAME, der(0x04, der(0x30, der(0x87, InetAddress.getByName("127.0.0.1").getAddress()))));
        byte[] tbs = der(0x30,
            der(0xA0, der(0x02, new byte[] {2})),                                   // version 3
            der(0x02, new BigInteger(64, new SecureRandom()).add(BigInteger.ONE).toByteArray()),
            der(0x30, SHA256_WITH_RSA, DER_NULL),
            name(issuer),
            der(0x30, der(0x17, ascii(UTC_TIME.format(now.minus(Duration.ofHours(1))))),
                der(0x17, ascii(UTC_TIME.format(now.plus(Duration.ofDays(2)))))),
            name(subject),
            subjectKeys.getPublic().getEncoded(),                                  // SubjectPublicKeyInfo
            der(0xA3, der(0x30, extension)));
        Signature signer = Signature.getInstance("SHA256withRSA");
        signer.initSign(issuerKey);
        signer.update(tbs);
        byte[] signature = signer.sign();
        byte[] bits = new byte[signature.length + 1];
        System.arraycopy(signature, 0, bits, 1, signature.length);
        byte[] certificate = der(0x30, tbs, der(0x30, SHA256_WITH_RSA, DER_NULL), der(0x03, bits));
        // parse it back: a malformed encoding fails here, not in the server
        X509Certificate parsed = (X509Certificate) CertificateFactory.getInstance("X.509")
            .generateCertificate(new ByteArrayInputStream(certificate));
        parsed.checkValidity();
        return certificate;
    }

    private static byte[] name(String commonName) throws IOException {
        return der(0x30, der(0x31, der(0x30, COMMON_NAME, der(0x0C, commonName.getBytes(StandardCharsets.UTF_8)))));
    }

    private static byte[] der(int tag, byte[]... contents) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (byte[] content : contents) {
            body.write(content);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int length = body.size();
        if (length < 0x80) {
            out.write(length);
        } else if (length < 0x100) {
            out.write(0x81);
            out.write(length);
        } else {
            out.write(0x82);
            out.write(length >>> 8);
            out.write(length & 0xFF);
        }
        body.writeTo(out);
        return out.toByteArray();
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static KeyPair rsa() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
    }

    private static Path writePem(Path file, String label, byte[] der) throws IOException {
        String pem = "-----BEGIN " + label + "-----\n"
            + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
            + "\n-----END " + label + "-----\n";
        Files.writeString(file, pem, StandardCharsets.US_ASCII);
        return file;
    }
}
