package io.rdmarepl.coordinator.roles;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Talks to the admin endpoints of the shippers and appliers: reads {@code /status}, and posts control actions
 * ({@code /drain}, {@code /promote}, {@code /fence}) with the roles' bearer token.
 *
 * <p>Each request runs on the caller's thread over a kept-alive connection ({@link HttpURLConnection}, never
 * through a proxy). The coordinator's watches poll every few milliseconds and a failover is a chain of requests:
 * java.net.http's client hands every exchange to its selector and executor threads and back, which on a busy
 * two-core host cost a few hundred microseconds to milliseconds per request; a blocking exchange costs none of
 * that. Redirects are not followed; a request on a kept connection the role closed meanwhile is sent again once
 * (the JDK's rule), which every role action allows: each is idempotent.
 */
public final class HttpRoleClient implements RoleClient {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int CONNECT_TIMEOUT_MS = 500;

    private final String token;

    public HttpRoleClient(String token) {
        this.token = token;
    }

    @Override
    public JsonNode get(URI admin, String path, Duration timeout) {
        return send("GET", admin.resolve(path), null, timeout);
    }

    @Override
    public JsonNode post(URI admin, String path, String body, Duration timeout) {
        return send("POST", admin.resolve(path), body == null ? "" : body, timeout);
    }

    private JsonNode send(String method, URI uri, String body, Duration timeout) {
        int timeoutMs = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        int connectTimeoutMs = Math.min(CONNECT_TIMEOUT_MS, timeoutMs);
        HttpURLConnection connection = null;
        boolean connected = false;
        try {
            connection = (HttpURLConnection) uri.toURL().openConnection(Proxy.NO_PROXY);
            connection.setRequestMethod(method);
            connection.setConnectTimeout(connectTimeoutMs);
            connection.setReadTimeout(timeoutMs);
            connection.setUseCaches(false);
            connection.setInstanceFollowRedirects(false);
            byte[] bytes = body == null ? null : body.getBytes(StandardCharsets.UTF_8);
            if (bytes != null) {
                connection.setRequestProperty("Content-Type", "application/json");
                if (!token.isEmpty()) {
                    connection.setRequestProperty("Authorization", "Bearer " + token);
                }
                // buffered, not streamed: a streamed body makes the JDK drop the answer to a refusal (401) it
                // cannot resend the body for; these bodies are a few bytes, and the actions are idempotent
                connection.setDoOutput(true);
            }
            connection.connect();
            connected = true;
            if (bytes != null) {
                try (OutputStream out = connection.getOutputStream()) {
                    out.write(bytes);
                }
            }
            int code = connection.getResponseCode();
            // read to the end either way: only a fully read answer leaves the connection for the next request
            String answer = readFully(code >= 400 ? connection.getErrorStream() : connection.getInputStream());
            if (code != 200) {
                throw new RoleException(method + " " + uri + " answered " + code + ": " + answer.strip());
            }
            return JSON.readTree(answer);
        } catch (SocketTimeoutException e) {
            disconnect(connection);
            if (!connected) {
                throw new RoleException(method + " " + uri + " unreachable: no connection within " + connectTimeoutMs + " ms");
            }
            throw new RoleException(method + " " + uri + ": no answer within " + timeoutMs + " ms");
        } catch (ConnectException e) {
            throw new RoleException(method + " " + uri + " unreachable: " + (e.getMessage() == null ? "connection refused" : e.getMessage()));
        } catch (IOException e) {
            disconnect(connection);
            throw new RoleException(method + " " + uri + " unreachable: "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        }
    }

    private static String readFully(InputStream in) throws IOException {
        if (in == null) {
            return "";
        }
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** A connection left mid-answer must not be handed to the next request. */
    private static void disconnect(HttpURLConnection connection) {
        if (connection != null) {
            connection.disconnect();
        }
    }
}
