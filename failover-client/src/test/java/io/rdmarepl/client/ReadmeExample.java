package io.rdmarepl.client;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The example of docs/failover-client.md (the failover-aware DataSource), compiled with the tests so that it cannot rot.
 */
final class ReadmeExample {
    private ReadmeExample() {
    }

    static void placeOrder(final long orderId, final String item) throws SQLException {
        // tag::example[]
        FailoverDataSourceConfig config = FailoverDataSourceConfig.builder()
            .coordinatorUrl("http://coord1:8080").coordinatorUrl("http://coord2:8080")
            .user("app").password(System.getenv("APP_DB_PASSWORD"))
            .databaseProperty("sslmode", "require")
            .build();
        try (FailoverDataSource db = new FailoverDataSource(config)) {   // one per application
            db.inTransaction(connection -> {
                try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO orders (id, item) VALUES (?, ?) ON CONFLICT (id) DO NOTHING")) {  // idempotent
                    insert.setLong(1, orderId);
                    insert.setString(2, item);
                    return insert.executeUpdate();
                }
            }, Duration.ofSeconds(30));
        }
        // end::example[]
    }
}
