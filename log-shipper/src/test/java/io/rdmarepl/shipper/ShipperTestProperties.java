package io.rdmarepl.shipper;

import io.rdmarepl.testsupport.PostgresServer;
import java.util.Properties;

/** The shipper properties every test against an embedded primary starts from: the primary as superuser, one standby "a". */
public final class ShipperTestProperties {
    private ShipperTestProperties() {
    }

    /** {@code database.*} for {@code primary}, {@code standbys=a} and {@code standby.a.uri}; a test adds its own keys. */
    public static Properties of(PostgresServer primary, String standbyUri) {
        Properties p = new Properties();
        p.setProperty("database.host", PostgresServer.HOST);
        p.setProperty("database.port", Integer.toString(primary.port()));
        p.setProperty("database.user", PostgresServer.SUPERUSER);
        p.setProperty("standbys", "a");
        p.setProperty("standby.a.uri", standbyUri);
        return p;
    }
}
