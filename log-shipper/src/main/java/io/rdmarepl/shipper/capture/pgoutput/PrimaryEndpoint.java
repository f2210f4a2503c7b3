package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.shipper.config.SyncSettings;
import java.nio.file.Path;
import java.time.Duration;

/** The primary as the shipper's configuration names it, for the wire client's sessions. */
public final class PrimaryEndpoint {
    private PrimaryEndpoint() {
    }

    /**
     * The replication session: {@code database.*}, {@code database.sslmode} and {@code database.sslrootcert}, and
     * the application name that {@code synchronous_standby_names} lists in sync mode. The connect timeout is at
     * least a second: TLS and authentication each wait for the server within it. Over TCP its receive buffer is
     * {@code capture.receive.buffer.bytes}.
     */
    public static ReplicationEndpoint of(ShipperConfig config) {
        return new ReplicationEndpoint(config.databaseHost(), config.databasePort(), config.databaseName(),
                config.databaseUser(), config.databasePassword().isEmpty() ? null : config.databasePassword(),
                SslMode.parse(config.sslMode()), config.sslRootCert().isEmpty() ? null : Path.of(config.sslRootCert()),
                SyncSettings.applicationName(config.sourceName()), Duration.ofMillis(Math.max(1000, config.connectTimeout().toMillis())),
                ReplicationEndpoint.STATUS_INTERVAL_DEFAULT, ReplicationEndpoint.RECEIVE_TIMEOUT_DEFAULT, true,
                config.receiveBufferBytes());
    }
}
