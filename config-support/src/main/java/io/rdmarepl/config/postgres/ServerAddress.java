package io.rdmarepl.config.postgres;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Where a PostgreSQL server is reached, read as libpq reads a host: a name or address for TCP, or, when it starts with
 * {@code /}, the directory of the server's Unix-domain socket ({@code unix_socket_directories}), whose file for the
 * port is {@code .s.PGSQL.PORT}. A sidecar on the server's own host should use the socket: it skips the TCP stack on
 * both ends. TLS does not run over a Unix-domain socket (PostgreSQL never offers it there).
 *
 * @param host a host name or address, or an absolute directory
 */
public record ServerAddress(String host, int port) {
    /** Whether {@code host} names a socket directory (libpq's rule: an absolute path). */
    public static boolean isSocketDirectory(String host) {
        return host.startsWith("/");
    }

    public boolean unixSocket() {
        return isSocketDirectory(host);
    }

    /** The socket file; only for a {@link #unixSocket()} address. */
    public Path socketFile() {
        return UnixSocket.file(host, port);
    }

    /**
     * The JDBC URL of {@code database}: over TCP with {@code sslmode} (and {@code sslrootcert} unless empty); over the
     * socket through {@link UnixSocketFactory}, without TLS.
     */
    public String jdbcUrl(String database, String sslMode, String sslRootCert) {
        if (unixSocket()) {
            return "jdbc:postgresql://localhost:" + port + "/" + database + "?sslmode=disable&socketFactory="
                    + UnixSocketFactory.class.getName() + "&socketFactoryArg=" + encode(socketFile().toString());
        }
        String url = "jdbc:postgresql://" + host + ":" + port + "/" + database + "?sslmode=" + sslMode;
        return sslRootCert.isEmpty() ? url : url + "&sslrootcert=" + encode(sslRootCert);
    }

    /** For messages: {@code host:port}, or the socket file. */
    @Override
    public String toString() {
        return unixSocket() ? socketFile().toString() : host + ":" + port;
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
