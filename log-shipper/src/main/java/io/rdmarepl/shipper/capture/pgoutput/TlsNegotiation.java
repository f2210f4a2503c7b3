package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.shipper.capture.pgoutput.ReplicationException.Reason;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The SSLRequest and, when the server accepts it, the TLS handshake, per {@link SslMode}.
 * <pre>
 *   SSLRequest, client to server, 8 bytes, no type byte:
 *     offset size field
 *          0    4 length   8
 *          4    4 code     80877103 (1234 in the high 16 bits, 5679 in the low)
 *   answer: one byte, 'S' (go on with TLS) or 'N' (no TLS); 'E' only from servers older than 7.2 or in error
 * </pre>
 * Nothing may follow the 'S' before the handshake: bytes already there would have been sent in clear text by
 * someone else (CVE-2021-23222), and the connection is refused.
 */
final class TlsNegotiation {
    static final int SSL_REQUEST_CODE = 80877103;

    private TlsNegotiation() {
    }

    /** @return {@code tcp} itself (no TLS) or an {@link SSLSocket} layered on it, handshake done */
    static Socket negotiate(Socket tcp, ReplicationEndpoint endpoint) throws IOException {
        SslMode mode = endpoint.sslMode();
        if (!mode.requestsTls()) {
            return tcp;
        }
        OutputStream out = tcp.getOutputStream();
        out.write(new byte[] {0, 0, 0, 8, (byte) (SSL_REQUEST_CODE >>> 24), (byte) (SSL_REQUEST_CODE >>> 16),
            (byte) (SSL_REQUEST_CODE >>> 8), (byte) SSL_REQUEST_CODE});
        out.flush();
        InputStream in = tcp.getInputStream();
        int answer = in.read();
        switch (answer) {
            case 'S' -> {
                if (in.available() > 0) {
                    throw failure(endpoint, "the server sent unencrypted data right after accepting TLS; refusing");
                }
                return handshake(tcp, endpoint);
            }
            case 'N' -> {
                if (mode.requiresTls()) {
                    throw failure(endpoint, "the server does not accept TLS (it answered N to the SSLRequest), "
                        + "but sslmode is " + mode + " (is ssl = on in postgresql.conf?)");
                }
                return tcp;
            }
            case 'E' -> {
                DataInputStream data = new DataInputStream(in);
                int length = data.readInt();
                if (length < 4 || length > 64 * 1024) {
                    throw failure(endpoint, "the server answered the SSLRequest with an error of length " + length);
                }
                byte[] body = new byte[length - 4];
                data.readFully(body);
                throw ReplicationException.fromServer(endpoint, "TLS negotiation", ServerError.parse(body, 0, body.length), false);
            }
            case -1 -> throw new ReplicationException(Reason.NETWORK, endpoint.title()
                + ": the server closed the connection in answer to the SSLRequest");
            default -> throw new ReplicationException(Reason.PROTOCOL, endpoint.title()
                + ": the server answered the SSLRequest with byte " + answer + ", neither S nor N");
        }
    }

    private static Socket handshake(Socket tcp, ReplicationEndpoint endpoint) throws IOException {
        SSLContext context = context(endpoint);
        SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(tcp, endpoint.host(), endpoint.port(), true);
        tls.setUseClientMode(true);
        if (endpoint.sslMode().verifiesHostName()) {
            SSLParameters parameters = tls.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            tls.setSSLParameters(parameters);
        }
        try {
            tls.startHandshake();
        } catch (SSLException ex) {
            throw new ReplicationException(Reason.TLS, endpoint.title()
                + ": TLS handshake failed (sslmode " + endpoint.sslMode()
                + (endpoint.sslRootCert() == null ? "" : ", sslrootcert " + endpoint.sslRootCert()) + "): " + ex.getMessage(), ex);
        }
        return tls;
    }

    private static SSLContext context(ReplicationEndpoint endpoint) throws ReplicationException {
        boolean verify = endpoint.sslMode().verifiesChain(endpoint.sslRootCert() != null);
        try {
            TrustManager[] trust;
            if (verify) {
                TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                factory.init(rootCertificates(endpoint));
                trust = factory.getTrustManagers();
            } else {
                trust = new TrustManager[] {new TrustingAnyServer()};
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust, null);
            return context;
        } catch (GeneralSecurityException ex) {
            throw new ReplicationException(Reason.TLS, endpoint.title()
                + ": cannot set up TLS: " + ex.getMessage(), ex);
        }
    }

    /** The PEM (or DER) certificates of {@code sslrootcert}, in an in-memory trust store. */
    private static KeyStore rootCertificates(ReplicationEndpoint endpoint) throws ReplicationException {
        Collection<? extends Certificate> certificates;
        try (InputStream pem = Files.newInputStream(endpoint.sslRootCert())) {
            certificates = CertificateFactory.getInstance("X.509").generateCertificates(pem);
        } catch (IOException | GeneralSecurityException ex) {
            throw new ReplicationException(Reason.TLS, endpoint.title()
                + ": cannot read sslrootcert " + endpoint.sslRootCert() + ": " + ex.getMessage(), ex);
        }
        if (certificates.isEmpty()) {
            throw failure(endpoint, "sslrootcert " + endpoint.sslRootCert() + " holds no certificate");
        }
        try {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int index = 0;
            for (Certificate certificate : certificates) {
                store.setCertificateEntry("root-" + index++, certificate);
            }
            return store;
        } catch (IOException | GeneralSecurityException ex) {
            throw new ReplicationException(Reason.TLS, endpoint.title()
                + ": cannot build a trust store from sslrootcert " + endpoint.sslRootCert() + ": " + ex.getMessage(), ex);
        }
    }

    private static ReplicationException failure(ReplicationEndpoint endpoint, String why) {
        return new ReplicationException(Reason.TLS, endpoint.title() + ": " + why);
    }

    /**
     * sslmode prefer and require without a root certificate: encryption without authentication of the server, as
     * libpq. Extended, so that JSSE adds no checks of its own around it.
     */
    private static final class TrustingAnyServer extends X509ExtendedTrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
