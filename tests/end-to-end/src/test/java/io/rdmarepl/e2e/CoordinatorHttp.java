package io.rdmarepl.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.history.ClientWriter;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The test's view of {@code rdmarepl coordinate}'s admin endpoint. */
final class CoordinatorHttp {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final String base;

    CoordinatorHttp(String base) {
        this.base = base;
    }

    String base() {
        return base;
    }

    /** An application's view: a failover-aware DataSource following this coordinator's topology. */
    io.rdmarepl.client.FailoverDataSource dataSource() {
        return dataSource(java.util.List.of(base));
    }

    /** An application's view: a failover-aware DataSource following the topology of the coordinators at {@code bases}. */
    static io.rdmarepl.client.FailoverDataSource dataSource(java.util.List<String> bases) {
        return new io.rdmarepl.client.FailoverDataSource(io.rdmarepl.client.FailoverDataSourceConfig.builder().coordinatorUrls(bases)
                .user(io.rdmarepl.testsupport.PostgresServer.SUPERUSER).password("").connectionTimeout(Duration.ofSeconds(10)).build());
    }

    /**
     * An application writing through {@code dataSource} (each write's {@code inTransaction} with a 200 ms budget): the
     * client whose acknowledged writes a failover test checks.
     */
    static ClientWriter.Builder writerThrough(io.rdmarepl.client.FailoverDataSource dataSource) {
        return ClientWriter.to(work -> dataSource.inTransaction(work::run, Duration.ofMillis(200))).name("application");
    }

    /** A data source that uses a topology at most {@code topologyMaxAge} without the coordinator confirming it. */
    io.rdmarepl.client.FailoverDataSource dataSource(Duration topologyMaxAge, Duration connectionTimeout) {
        return new io.rdmarepl.client.FailoverDataSource(io.rdmarepl.client.FailoverDataSourceConfig.builder().coordinatorUrl(base)
                .user(io.rdmarepl.testsupport.PostgresServer.SUPERUSER).password("").connectionTimeout(connectionTimeout)
                .topologyMaxAge(topologyMaxAge).build());
    }

    JsonNode status() throws IOException, InterruptedException {
        return JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(base + "/status")).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    /** {@code GET /topology} at once: what a client following this coordinator is told, with {@code leader} and {@code age_ms}. */
    JsonNode topology() throws IOException, InterruptedException {
        return JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(base + "/topology")).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    /** The history entries, oldest first. */
    JsonNode history() throws IOException, InterruptedException {
        return JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(base + "/history")).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString()).body()).path("history");
    }

    /** POSTs {@code body} to {@code path}, with the token when it is not null; returns the answer. */
    HttpResponse<String> post(String path, String body, String token) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(90))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Waits until /status has {@code phase}; fails with the last status after {@code timeout}. */
    JsonNode awaitPhase(String phase, Duration timeout) throws IOException, InterruptedException {
        return Await.until("the coordinator in phase " + phase, timeout, this::status, status -> phase.equals(status.path("phase").asText()));
    }
}
