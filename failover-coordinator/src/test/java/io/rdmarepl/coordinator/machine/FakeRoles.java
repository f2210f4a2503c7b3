package io.rdmarepl.coordinator.machine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.coordinator.roles.RoleClient;
import io.rdmarepl.coordinator.roles.RoleException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The roles' admin endpoints, as answers set per request ({@code "POST http://b.applier:7401/drain"}). A request with no
 * answer set fails as an unreachable endpoint would. Every request is recorded, body included.
 */
final class FakeRoles implements RoleClient {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What an endpoint does with a request's body: answers, or throws {@link RoleException}. */
    @FunctionalInterface
    interface Endpoint {
        JsonNode answer(String body);
    }

    private final Map<String, Endpoint> endpoints = new ConcurrentHashMap<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();

    void on(String method, URI admin, String path, Endpoint endpoint) {
        endpoints.put(key(method, admin, path), endpoint);
    }

    /** The bodies posted to {@code admin}{@code path}, in order. */
    List<String> posted(URI admin, String path) {
        String prefix = key("POST", admin, path) + " ";
        return requests.stream().filter(r -> r.startsWith(prefix)).map(r -> r.substring(prefix.length())).toList();
    }

    @Override
    public JsonNode get(URI admin, String path, Duration timeout) {
        return send("GET", admin, path, "");
    }

    @Override
    public JsonNode post(URI admin, String path, String body, Duration timeout) {
        return send("POST", admin, path, body);
    }

    private JsonNode send(String method, URI admin, String path, String body) {
        String key = key(method, admin, path);
        requests.add(key + " " + body);
        Endpoint endpoint = endpoints.get(key);
        if (endpoint == null) {
            throw new RoleException(key + " unreachable: connection refused (no answer set in the test)");
        }
        return endpoint.answer(body);
    }

    private static String key(String method, URI admin, String path) {
        return method + " " + admin.resolve(path);
    }

    static Endpoint answering(String json) {
        JsonNode answer = json(json);
        return body -> answer;
    }

    static Endpoint refusing(String why) {
        return body -> {
            throw new RoleException(why);
        };
    }

    /** Answers {@code json} once {@code release} is counted down: a role that answers late. */
    static Endpoint answeringAfter(CountDownLatch release, String json) {
        JsonNode answer = json(json);
        return body -> {
            try {
                if (!release.await(30, TimeUnit.SECONDS)) {
                    throw new RoleException("the test never released this answer");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RoleException("interrupted while answering late");
            }
            return answer;
        };
    }

    static JsonNode json(String json) {
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("bad JSON in the test: " + json, e);
        }
    }
}
