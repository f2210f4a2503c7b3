package io.rdmarepl.testsupport.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.testsupport.Await;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A client's view of {@code rdmarepl coordinate}'s admin endpoint: {@code /status}, {@code /topology},
 * {@code /history}, control actions. (An application's data source following it is failover-client's, which this
 * module cannot depend on: the end-to-end tests make one from {@link #base()}.)
 */
public final class CoordinatorHttp {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final String base;

    /** @param base e.g. {@code http://10.213.40.4:7490} */
    public CoordinatorHttp(String base) {
        this.base = base;
    }

    public String base() {
        return base;
    }

    public JsonNode status() throws IOException, InterruptedException {
        return JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(base + "/status")).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    /** {@code GET /topology} at once: what a client following this coordinator is told, with {@code leader} and {@code age_ms}. */
    public JsonNode topology() throws IOException, InterruptedException {
        return JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(base + "/topology")).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    /** The history entries, oldest first. */
    public JsonNode history() throws IOException, InterruptedException {
        return JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(base + "/history")).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString()).body()).path("history");
    }

    /** POSTs {@code body} to {@code path}, with the token when it is not null; returns the answer. */
    public HttpResponse<String> post(String path, String body, String token) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(90))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Waits until /status has {@code phase}; fails with the last status after {@code timeout}. */
    public JsonNode awaitPhase(String phase, Duration timeout) throws IOException, InterruptedException {
        return Await.until("the coordinator in phase " + phase, timeout, this::status, status -> phase.equals(status.path("phase").asText()));
    }
}
