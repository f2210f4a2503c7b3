package io.rdmarepl.cli.admin;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin endpoint every rdmarepl process serves: {@code GET /health} (200 when healthy, 503
 * otherwise), {@code GET /status} (JSON), {@code GET /metrics} (Prometheus text), and control
 * actions ({@code POST}) that require {@code Authorization: Bearer <token>}.
 */
public final class AdminServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AdminServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A control action: returns the JSON answer. */
    @FunctionalInterface
    public interface ControlAction {
        Map<String, Object> run(String body) throws Exception;
    }

    private final HttpServer server;
    private final byte[] token;

    /**
     * @param token   control token; null or empty disables every control action
     * @param healthy whether {@code /health} answers 200
     * @param status  the {@code /status} document
     */
    public AdminServer(InetSocketAddress address, String token, Supplier<Boolean> healthy,
                       Supplier<Map<String, Object>> status, PrometheusMeterRegistry registry) {
        try {
            this.server = HttpServer.create(address, 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on admin address " + address + ": " + e.getMessage(), e);
        }
        this.token = token == null || token.isEmpty() ? null : token.getBytes(StandardCharsets.UTF_8);
        server.setExecutor(Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, "rdmarepl-admin");
            thread.setDaemon(true);
            return thread;
        }));
        server.createContext("/health", exchange -> {
            if (allowOnly(exchange, "GET")) {
                boolean up = Boolean.TRUE.equals(healthy.get());
                send(exchange, up ? 200 : 503, "application/json", json(Map.of("status", up ? "UP" : "DOWN")));
            }
        });
        server.createContext("/status", exchange -> {
            if (allowOnly(exchange, "GET")) {
                send(exchange, 200, "application/json", json(status.get()));
            }
        });
        server.createContext("/metrics", exchange -> {
            if (allowOnly(exchange, "GET")) {
                send(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape().getBytes(StandardCharsets.UTF_8));
            }
        });
    }

    /** Registers {@code POST path}, refused unless the request carries the control token. */
    public AdminServer control(String path, ControlAction action) {
        server.createContext(path, exchange -> {
            if (!allowOnly(exchange, "POST")) {
                return;
            }
            if (!authorised(exchange)) {
                LOG.warn("refused {} from {}: missing or wrong control token", path, exchange.getRemoteAddress());
                send(exchange, token == null ? 403 : 401, "application/json", json(Map.of("error",
                        token == null ? "control actions are disabled: no admin token configured" : "missing or wrong control token")));
                return;
            }
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            try {
                send(exchange, 200, "application/json", json(action.run(body)));
            } catch (Exception e) {
                send(exchange, 500, "application/json", json(Map.of("error", String.valueOf(e.getMessage()))));
            }
        });
        return this;
    }

    public AdminServer start() {
        server.start();
        return this;
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }

    private boolean authorised(HttpExchange exchange) {
        if (token == null) {
            return false;
        }
        String header = exchange.getRequestHeaders().getFirst("Authorization");
        if (header == null || !header.startsWith("Bearer ")) {
            return false;
        }
        return MessageDigest.isEqual(token, header.substring("Bearer ".length()).getBytes(StandardCharsets.UTF_8));
    }

    private static boolean allowOnly(HttpExchange exchange, String method) throws IOException {
        if (exchange.getRequestMethod().equals(method)) {
            return true;
        }
        exchange.getResponseHeaders().add("Allow", method);
        send(exchange, 405, "application/json", json(Map.of("error", "use " + method)));
        return false;
    }

    private static byte[] json(Object value) throws IOException {
        return JSON.writeValueAsBytes(value);
    }

    private static void send(HttpExchange exchange, int code, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(code, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
