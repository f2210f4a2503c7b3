package io.rdmarepl.cli.runbook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Talks to the coordinator's admin endpoint: {@code GET} for reads, {@code POST} with the bearer token for
 * control actions. Every answer other than 200, and every way of not getting one, becomes a
 * {@link RunbookFailure} with the exit code the runbook documents.
 */
final class CoordinatorAdmin {
    static final ObjectMapper JSON = new ObjectMapper();

    /** The body {@code {"to": NAME}}, {@code {"to": null}} when no member is named (the coordinator picks the best). */
    static com.fasterxml.jackson.databind.node.ObjectNode target(String to) {
        com.fasterxml.jackson.databind.node.ObjectNode body = JSON.createObjectNode();
        if (to == null) {
            body.putNull("to");
        } else {
            body.put("to", to);
        }
        return body;
    }
    /** Connecting either works quickly or not at all; only the answer may take long (a failover drains a ring). */
    private static final Duration MAX_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** A control action whose answer never came may have happened: say so, so nobody blindly retries a failover. */
    private static final String OUTCOME_UNKNOWN =
            ": the action may still be running; check `rdmarepl status` and `rdmarepl history` before retrying";

    private final URI coordinator;
    private final String token;
    private final Duration timeout;
    private final HttpClient http;

    CoordinatorAdmin(URI coordinator, String token, Duration timeout) {
        this.coordinator = coordinator;
        this.token = token;
        this.timeout = timeout;
        // HTTP/1.1: the admin endpoint speaks plain HTTP; no h2c upgrade attempt
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout.compareTo(MAX_CONNECT_TIMEOUT) < 0 ? timeout : MAX_CONNECT_TIMEOUT)
                .build();
    }

    JsonNode get(String path) throws InterruptedException {
        return send(request(path).GET().build());
    }

    JsonNode post(String path, JsonNode body) throws InterruptedException {
        HttpRequest.Builder request = request(path)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return send(request.build());
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(coordinator + path)).timeout(timeout).header("Accept", "application/json");
    }

    private JsonNode send(HttpRequest request) throws InterruptedException {
        String what = request.method() + " " + request.uri().getPath();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpConnectTimeoutException | ConnectException e) {
            throw new RunbookFailure(ExitCodes.UNREACHABLE, "cannot reach the coordinator at " + coordinator + " (" + reason(e)
                    + "): is `rdmarepl coordinate` running there? Point --coordinator or RDMAREPL_COORDINATOR at its admin.address");
        } catch (HttpTimeoutException e) {
            throw new RunbookFailure(ExitCodes.UNREACHABLE, noAnswer(what, request.method().equals("POST")));
        } catch (IOException e) {
            throw new RunbookFailure(ExitCodes.UNREACHABLE, "lost the connection to the coordinator at " + coordinator + " during "
                    + what + " (" + reason(e) + ")" + (request.method().equals("POST") ? OUTCOME_UNKNOWN : ""));
        }
        return answer(what, response.statusCode(), response.body());
    }

    private String noAnswer(String what, boolean action) {
        return "the coordinator at " + coordinator + " did not answer " + what + " within " + timeout.toMillis() + " ms"
                + (action ? OUTCOME_UNKNOWN : "; check `rdmarepl coordinate` there, or raise --timeout-ms");
    }

    private JsonNode answer(String what, int status, String body) {
        JsonNode json = parse(body);
        String error = json != null && json.hasNonNull("error") ? json.get("error").asText() : abbreviate(body);
        switch (status) {
            case 200 -> {
                if (json == null) {
                    throw new RunbookFailure(ExitCodes.REFUSED, "the coordinator at " + coordinator + " answered " + what
                            + " with something that is not JSON: " + abbreviate(body));
                }
                return json;
            }
            case 409 -> throw new RunbookFailure(ExitCodes.REFUSED, "refused: " + error);
            case 400 -> throw new RunbookFailure(ExitCodes.BAD_USAGE, "bad request: " + error);
            case 401 -> throw new RunbookFailure(ExitCodes.NOT_AUTHORISED, token == null
                    ? "not authorised: no admin token given; pass --token or set RDMAREPL_ADMIN_TOKEN to the coordinator's admin.token"
                    : "not authorised: the coordinator rejected the token (" + error
                            + "); check --token / RDMAREPL_ADMIN_TOKEN against the coordinator's admin.token");
            case 403 -> throw new RunbookFailure(ExitCodes.NOT_AUTHORISED, "not authorised: " + error
                    + " (set admin.token in the coordinator's configuration, then pass it with --token or RDMAREPL_ADMIN_TOKEN)");
            case 404, 405 -> throw new RunbookFailure(ExitCodes.UNREACHABLE, coordinator + " does not serve " + what + " (HTTP "
                    + status + "): point --coordinator or RDMAREPL_COORDINATOR at a coordinator's admin.address, "
                    + "not a shipper's or applier's");
            default -> throw new RunbookFailure(ExitCodes.REFUSED, "the coordinator failed " + what + " (HTTP " + status + "): "
                    + error + "; check `rdmarepl status` and `rdmarepl history`");
        }
    }

    private static JsonNode parse(String body) {
        try {
            return body == null || body.isBlank() ? null : JSON.readTree(body);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /** The first message in the cause chain; HttpClient reports a refused connection with no message at all. */
    private static String reason(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                return t.getMessage();
            }
        }
        return e instanceof ConnectException ? "connection refused" : e.getClass().getSimpleName();
    }

    private static String abbreviate(String body) {
        String flat = body == null ? "" : body.strip().replaceAll("\\s+", " ");
        return flat.isEmpty() ? "(empty answer)" : flat.length() <= 200 ? flat : flat.substring(0, 200) + "...";
    }
}
