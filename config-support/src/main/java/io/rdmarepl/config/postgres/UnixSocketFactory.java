package io.rdmarepl.config.postgres;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import javax.net.SocketFactory;

/**
 * pgjdbc's {@code socketFactory} for a server's Unix-domain socket: pgjdbc instantiates it with its
 * {@code socketFactoryArg}, the socket file ({@code DIR/.s.PGSQL.PORT}), and connects the {@link UnixSocket}s it makes
 * to that file whatever host and port the URL names. See {@link ServerAddress#jdbcUrl}.
 */
public final class UnixSocketFactory extends SocketFactory {
    private final Path file;

    /** @param socketFile the server's socket file, as {@code socketFactoryArg} gives it */
    public UnixSocketFactory(String socketFile) {
        this.file = Path.of(socketFile);
    }

    /** As pgjdbc instantiates it first: with the connection's properties, {@code socketFactoryArg} among them. */
    public UnixSocketFactory(java.util.Properties connectionProperties) {
        this(requireArg(connectionProperties.getProperty("socketFactoryArg")));
    }

    private static String requireArg(String socketFile) {
        if (socketFile == null || socketFile.isEmpty()) {
            throw new IllegalArgumentException(UnixSocketFactory.class.getName() + " needs socketFactoryArg: the server's"
                    + " socket file, e.g. /var/run/postgresql/.s.PGSQL.5432");
        }
        return socketFile;
    }

    @Override
    public Socket createSocket() throws IOException {
        return new UnixSocket(file);
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected();
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return connected();
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected();
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
        return connected();
    }

    private Socket connected() throws IOException {
        UnixSocket socket = new UnixSocket(file);
        socket.connect();
        return socket;
    }
}
