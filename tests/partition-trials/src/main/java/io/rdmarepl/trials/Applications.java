package io.rdmarepl.trials;

import io.rdmarepl.client.FailoverDataSource;
import io.rdmarepl.client.FailoverDataSourceConfig;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.cluster.CoordinatorHttp;
import io.rdmarepl.testsupport.cluster.HostCluster;
import io.rdmarepl.testsupport.history.ClientWriter;
import java.time.Duration;
import java.util.List;

/** An application's view of a cluster: a failover-aware data source following its coordinators, and a writer through it. */
public final class Applications {
    private Applications() {
    }

    /** A data source following {@code coordinator}'s topology. */
    public static FailoverDataSource dataSource(CoordinatorHttp coordinator) {
        return dataSource(List.of(coordinator.base()));
    }

    /** A data source following every coordinator of {@code cluster}. */
    public static FailoverDataSource dataSource(HostCluster cluster) {
        return dataSource(cluster.coordinatorUrls());
    }

    /** A data source following the topology of the coordinators at {@code bases}. */
    public static FailoverDataSource dataSource(List<String> bases) {
        return new FailoverDataSource(FailoverDataSourceConfig.builder().coordinatorUrls(bases)
                .user(PostgresServer.SUPERUSER).password("").connectionTimeout(Duration.ofSeconds(10)).build());
    }

    /** A data source that uses a topology at most {@code topologyMaxAge} without {@code coordinator} confirming it. */
    public static FailoverDataSource dataSource(CoordinatorHttp coordinator, Duration topologyMaxAge, Duration connectionTimeout) {
        return new FailoverDataSource(FailoverDataSourceConfig.builder().coordinatorUrl(coordinator.base())
                .user(PostgresServer.SUPERUSER).password("").connectionTimeout(connectionTimeout)
                .topologyMaxAge(topologyMaxAge).build());
    }

    /**
     * An application writing through {@code dataSource} (each write's {@code inTransaction} with a 200 ms budget): the
     * client whose acknowledged writes a failover test checks.
     */
    public static ClientWriter.Builder writerThrough(FailoverDataSource dataSource) {
        return ClientWriter.to(work -> dataSource.inTransaction(work::run, Duration.ofMillis(200))).name("application");
    }
}
