package io.rdmarepl.testsupport.cluster;

import io.rdmarepl.testsupport.PostgresServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * Role configuration files: a shipper's and an applier's as the end-to-end tests' {@code Replication} starts them
 * (on one host, admin endpoints on free ports), and {@link #store}.
 */
public final class RoleConfigs {
    private RoleConfigs() {
    }

    /** @param rolesToken the admin token of the roles (what the coordinator sends them) */
    public static Properties shipper(String source, PostgresServer server, String standby, String uri, String rolesToken) {
        Properties shipping = new Properties();
        shipping.setProperty("source.name", source);
        shipping.setProperty("database.host", PostgresServer.HOST);
        shipping.setProperty("database.port", Integer.toString(server.port()));
        shipping.setProperty("database.user", PostgresServer.SUPERUSER);
        shipping.setProperty("standbys", standby);
        shipping.setProperty("standby." + standby + ".uri", uri);
        shipping.setProperty("admin.address", "127.0.0.1:0");
        shipping.setProperty("admin.token", rolesToken);
        shipping.setProperty("fence.lease.ms", "0"); // no lease: see the end-to-end tests' Replication.coordinated()
        return shipping;
    }

    /** @param rolesToken the admin token of the roles (what the coordinator sends them) */
    public static Properties applier(String source, String uri, PostgresServer into, String rolesToken) {
        Properties applying = new Properties();
        applying.setProperty("source.name", source);
        applying.setProperty("ring.uri", uri);
        applying.setProperty("ring.capacity.bytes", Integer.toString(4 << 20));
        applying.setProperty("replica.jdbc.url", into.jdbcUrl("postgres"));
        applying.setProperty("replica.connect.timeout.ms", "2000");
        applying.setProperty("apply.retry.max.ms", "500");
        applying.setProperty("admin.port", "0");
        applying.setProperty("admin.token", rolesToken);
        return applying;
    }

    public static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    public static void store(Properties properties, Path file, String comment) throws IOException {
        try (var writer = Files.newBufferedWriter(file)) {
            properties.store(writer, comment);
        }
    }
}
