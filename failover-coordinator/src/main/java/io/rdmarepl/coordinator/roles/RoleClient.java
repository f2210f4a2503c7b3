package io.rdmarepl.coordinator.roles;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Talks to the admin endpoints of the shippers and appliers: reads {@code /status}, and posts control actions
 * ({@code /drain}, {@code /promote}, {@code /fence}) with the roles' bearer token.
 */
public final class RoleClient {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
    private final String token;

    public RoleClient(String token) {
        this.token = token;
    }

    /**
     * @throws RoleException naming the endpoint when it does not answer 200 within {@code timeout}
     */
    public JsonNode status(URI admin, Duration timeout) {
        return get(admin, "/status", timeout);
    }

    /**
     * @throws RoleException naming the endpoint when {@code GET path} does not answer 200 within {@code timeout}
     */
    public JsonNode get(URI admin, String path, Duration timeout) {
        return send(HttpRequest.newBuilder(admin.resolve(path)).timeout(timeout).GET().build(), timeout);
    }

    /**
     * Posts {@code body} (JSON, or empty) to {@code path}.
     *
     * @throws RoleException naming the endpoint and its answer when it is not 200
     */
    public JsonNode post(URI admin, String path, String body, Duration timeout) {
        HttpRequest.Builder request = HttpRequest.newBuilder(admin.resolve(path)).timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body == null ? "" : body));
        if (!token.isEmpty()) {
            request.header("Authorization", "Bearer " + token);
        }
        return send(request.build(), timeout);
    }

    private JsonNode send(HttpRequest request, Duration timeout) {
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new RoleException(request.method() + " " + request.uri() + " answered " + response.statusCode() + ": "
                        + response.body().strip());
            }
            return JSON.readTree(response.body());
        } catch (java.net.http.HttpTimeoutException e) {
            throw new RoleException(request.method() + " " + request.uri() + ": no answer within " + timeout.toMillis() + " ms");
        } catch (IOException e) {
            throw new RoleException(request.method() + " " + request.uri() + " unreachable: "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RoleException(request.method() + " " + request.uri() + ": interrupted");
        }
    }
}
