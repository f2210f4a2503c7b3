package io.rdmarepl.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.config.ConfigException;
import io.rdmarepl.config.ConfigTable;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;

class FailoverDataSourceConfigTest {
    @Test
    void shouldApplyTheDefaults() {
        final FailoverDataSourceConfig config = FailoverDataSourceConfig.builder()
            .coordinatorUrl("http://coord1:8080").user("app").build();

        assertThat(config.coordinatorUrls()).containsExactly(URI.create("http://coord1:8080"));
        assertThat(config.password()).isNull();
        assertThat(config.databaseProperties()).isEmpty();
        assertThat(config.poolSize()).isEqualTo(10);
        assertThat(config.connectionTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.applicationName()).isEqualTo("rdmarepl-client");
        assertThat(config.coordinatorConnectTimeout()).isEqualTo(Duration.ofMillis(500));
        assertThat(config.pollWait()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.retiredPoolGrace()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.topologyMaxAge()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void shouldTakeNoBoundOrABoundOfAtLeastASecond() {
        final FailoverDataSourceConfig.Builder builder = FailoverDataSourceConfig.builder()
            .coordinatorUrl("http://coord1:8080").user("app");

        assertThat(builder.topologyMaxAge(Duration.ZERO).build().topologyMaxAge()).isZero();
        assertThat(builder.topologyMaxAge(Duration.ofSeconds(1)).build().topologyMaxAge()).hasSeconds(1);
        assertThatThrownBy(() -> builder.topologyMaxAge(Duration.ofMillis(999)).build())
            .hasMessageContaining("topologyMaxAge=999 ms: must be 0 (no bound) or at least 1000 ms");
    }

    @Test
    void shouldReportEveryProblemAtOnce() {
        assertThatThrownBy(() -> FailoverDataSourceConfig.builder()
            .coordinatorUrl("coord1:8080")
            .coordinatorUrl("http://coord2:8080/?x=1")
            .poolSize(0)
            .connectionTimeout(Duration.ZERO)
            .pollWait(Duration.ofSeconds(31))
            .build())
            .isInstanceOf(ConfigException.class)
            .hasMessage("failover data source settings: 6 problems:\n" +
                "  coordinatorUrls=coord1:8080: must start with http:// or https://\n" +
                "  coordinatorUrls=http://coord2:8080/?x=1: must not have a query or fragment\n" +
                "  user=: must not be empty\n" +
                "  poolSize=0: must be between 1 and 10000\n" +
                "  connectionTimeout=0 ms: must be positive\n" +
                "  pollWait=31000 ms: must be between 100 and 30000 ms (30000: the coordinator's limit)");
    }

    @Test
    void shouldKeepTheConnectionsOpenedAheadWithinThePoolSize() {
        final FailoverDataSourceConfig.Builder builder = FailoverDataSourceConfig.builder()
            .coordinatorUrl("http://coord1:8080").user("app");
        assertThat(builder.poolSize(1).build().standbyConnections()).as("default, capped by the pool size").isEqualTo(1);
        assertThat(builder.poolSize(10).build().standbyConnections()).as("default").isEqualTo(2);
        assertThatThrownBy(() -> builder.poolSize(3).standbyConnections(4).build())
            .hasMessageContaining("standbyConnections=4: must be between 0 and poolSize (3)");
        assertThatThrownBy(() -> builder.standbyConnections(-1).build())
            .hasMessageContaining("standbyConnections=-1: must be between 0 and poolSize (3)");
    }

    @Test
    void shouldTakeOnlyJdbcIsolationLevels() {
        final FailoverDataSourceConfig.Builder builder = FailoverDataSourceConfig.builder()
            .coordinatorUrl("http://coord1:8080").user("app");
        assertThat(builder.build().transactionIsolation()).isEqualTo("TRANSACTION_READ_COMMITTED");
        assertThat(builder.transactionIsolation("TRANSACTION_SERIALIZABLE").build().transactionIsolation())
            .isEqualTo("TRANSACTION_SERIALIZABLE");
        assertThat(builder.transactionIsolation("transaction_repeatable_read").build().transactionIsolation())
            .as("the JDBC name in any case").isEqualTo("TRANSACTION_REPEATABLE_READ");
        assertThatThrownBy(() -> builder.transactionIsolation("serializable").build())
            .hasMessageContaining("transactionIsolation=serializable: must be one of TRANSACTION_READ_UNCOMMITTED, "
                + "TRANSACTION_READ_COMMITTED, TRANSACTION_REPEATABLE_READ, TRANSACTION_SERIALIZABLE");
    }

    @Test
    void shouldRequireACoordinator() {
        assertThatThrownBy(() -> FailoverDataSourceConfig.builder().user("app").build())
            .hasMessageContaining("coordinatorUrls=: none given, at least one is required");
    }

    @Test
    void shouldStartFromTheDefaultsItsKeysDocument() {
        final FailoverDataSourceConfig config = FailoverDataSourceConfig.builder()
            .coordinatorUrl("http://coord1:8080").user("app").build();
        assertThat(config.poolSize()).isEqualTo(FailoverDataSourceKeys.POOL_SIZE.defaultValue());
        assertThat(config.standbyConnections()).isEqualTo(FailoverDataSourceKeys.STANDBY_CONNECTIONS.defaultValue());
        assertThat(config.connectionTimeout()).isEqualTo(FailoverDataSourceKeys.CONNECTION_TIMEOUT.defaultValue());
        assertThat(config.applicationName()).isEqualTo(FailoverDataSourceKeys.APPLICATION_NAME.defaultValue());
        assertThat(config.transactionIsolation()).isEqualTo(FailoverDataSourceKeys.TRANSACTION_ISOLATION.defaultValue());
        assertThat(config.coordinatorConnectTimeout()).isEqualTo(FailoverDataSourceKeys.COORDINATOR_CONNECT_TIMEOUT.defaultValue());
        assertThat(config.pollWait()).isEqualTo(FailoverDataSourceKeys.POLL_WAIT.defaultValue());
        assertThat(config.retiredPoolGrace()).isEqualTo(FailoverDataSourceKeys.RETIRED_POOL_GRACE.defaultValue());
        assertThat(config.topologyMaxAge()).isEqualTo(FailoverDataSourceKeys.TOPOLOGY_MAX_AGE.defaultValue());
        assertThat(FailoverDataSourceKeys.USER.required()).isTrue();
        assertThat(FailoverDataSourceKeys.COORDINATOR_URLS.required()).isTrue();
    }

    @Test
    void shouldMatchTheTableOfItsDocumentationPage() throws Exception {
        final Path page = Path.of("..").resolve(FailoverDataSourceKeys.ALL.page());
        assertThat(ConfigTable.verify(page, FailoverDataSourceKeys.ALL, Boolean.getBoolean("rdmarepl.docs.update")))
            .as("%s against FailoverDataSourceKeys (run with -Drdmarepl.docs.update=true to rewrite its table)", page).isEmpty();
    }

    @Test
    void shouldMaskSecretsWhenPrinted() {
        final FailoverDataSourceConfig config = FailoverDataSourceConfig.builder()
            .coordinatorUrl("http://coord1:8080").user("app").password("s3cret")
            .databaseProperty("sslmode", "verify-full").databaseProperty("sslpassword", "k3y").build();

        assertThat(config.toString())
            .contains("user=app", "password=****", "sslmode=verify-full", "sslpassword=****")
            .doesNotContain("s3cret", "k3y");
    }

    @Test
    void shouldNotLetCallersChangeTheDatabaseProperties() {
        final FailoverDataSourceConfig config = FailoverDataSourceConfig.builder()
            .coordinatorUrl("http://coord1:8080").user("app").build();

        config.databaseProperties().setProperty("sslmode", "disable");

        assertThat(config.databaseProperties()).isEmpty();
    }
}
