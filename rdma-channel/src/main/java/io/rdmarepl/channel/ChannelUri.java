package io.rdmarepl.channel;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A parsed transport URI: {@code shm:///dev/shm/NAME}, {@code rdma://host:port} or
 * {@code softrdma://host:port}. Port 0 lets a reader listen on any free port (its end's
 * {@code uri()} then names the port it bound).
 */
public record ChannelUri(Transport transport, String host, int port, Path path, String text) {

    /** The transports a channel can run over. */
    public enum Transport {
        /** Same-host shared memory: a memory-mapped file. */
        SHM("shm"),
        /** DiSNI verbs over an RDMA NIC. */
        RDMA("rdma"),
        /** The verbs code path over the pure-Java software RDMA provider (emulation). */
        SOFTRDMA("softrdma");

        private final String scheme;

        Transport(String scheme) {
            this.scheme = scheme;
        }

        public String scheme() {
            return scheme;
        }
    }

    /**
     * @throws IllegalArgumentException naming the URI and what is wrong with it
     */
    public static ChannelUri parse(String text) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("malformed channel URI '" + text + "': " + e.getMessage(), e);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        switch (scheme) {
            case "shm" -> {
                String path = uri.getPath();
                if (path == null || path.isEmpty() || path.endsWith("/") || uri.getAuthority() != null
                        || uri.getRawQuery() != null || uri.getRawFragment() != null) {
                    throw new IllegalArgumentException("channel URI '" + text
                            + "' must name a file, like shm:///dev/shm/rdmarepl-standby-a");
                }
                return new ChannelUri(Transport.SHM, null, -1, Path.of(path), text);
            }
            case "rdma", "softrdma" -> {
                if (uri.getHost() == null || uri.getPort() < 0 || uri.getPort() > 65535) {
                    throw new IllegalArgumentException("channel URI '" + text + "' must name host and port"
                            + " (0..65535; 0: any free port, reader side), like " + scheme + "://10.0.0.2:7471");
                }
                if (!uri.getRawPath().isEmpty() || uri.getRawQuery() != null || uri.getRawFragment() != null) {
                    throw new IllegalArgumentException("channel URI '" + text + "' must be just " + scheme + "://host:port");
                }
                Transport transport = scheme.equals("rdma") ? Transport.RDMA : Transport.SOFTRDMA;
                String host = uri.getHost().startsWith("[") ? uri.getHost().substring(1, uri.getHost().length() - 1) : uri.getHost();
                return new ChannelUri(transport, host, uri.getPort(), null, text);
            }
            default -> throw new IllegalArgumentException("channel URI '" + text
                    + "' has unknown scheme '" + scheme + "': use shm:///path, rdma://host:port or softrdma://host:port");
        }
    }

    @Override
    public String toString() {
        return text;
    }
}
