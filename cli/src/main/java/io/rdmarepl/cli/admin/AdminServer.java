package io.rdmarepl.cli.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmarepl.control.ControlJson;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
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
    /** The JDK server's switch for TCP_NODELAY on accepted connections; read once, when the first server starts. */
    static final String NO_DELAY_PROPERTY = "sun.net.httpserver.nodelay";

    static {
        // Without TCP_NODELAY the JDK server writes headers and body as two segments and Nagle holds the second
        // until the client's delayed ACK: ~40 ms on every answer, on the failover's critical path (the applier's
        // /drain and /promote, the coordinator's /topology long poll). An operator's explicit setting wins.
        if (System.getProperty(NO_DELAY_PROPERTY) == null) {
            System.setProperty(NO_DELAY_PROPERTY, "true");
        }
    }

    /**
     * A control action: returns the JSON answer. Throwing {@link IllegalArgumentException} answers 400 (bad
     * request), {@link IllegalStateException} 409 (refused, with the reason), anything else 500.
     */
    @FunctionalInterface
    public interface ControlAction {
        Object run(String body) throws Exception;
    }

    /** A read-only query: gets the URL's query parameters, returns the JSON answer (may block, e.g. a long poll). */
    @FunctionalInterface
    public interface QueryAction {
        Object run(Map<String, String> parameters) throws Exception;
    }

    private final HttpServer server;
    private final byte[] token;
    /** The threads of routes answered apart ({@link #query(String, QueryAction, ExecutorService)}), closed with the server. */
    private final List<ExecutorService> routeExecutors = new CopyOnWriteArrayList<>();

    /**
     * @param token   control token; null or empty disables every control action
     * @param healthy whether {@code /health} answers 200
     * @param status  the {@code /status} document
     */
    public AdminServer(InetSocketAddress address, String token, Supplier<Boolean> healthy,
                       Supplier<Map<String, Object>> status, PrometheusMeterRegistry registry) {
        this(address, token, healthy, status, registry, 1);
    }

    /**
     * @param threads request threads; 0 for as many as there are requests in flight (long polls hold one each)
     */
    public AdminServer(InetSocketAddress address, String token, Supplier<Boolean> healthy,
                       Supplier<Map<String, Object>> status, PrometheusMeterRegistry registry, int threads) {
        try {
            this.server = HttpServer.create(address, 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on admin address " + address + ": " + e.getMessage(), e);
        }
        this.token = token == null || token.isEmpty() ? null : token.getBytes(StandardCharsets.UTF_8);
        java.util.concurrent.ThreadFactory daemons = r -> {
            Thread thread = new Thread(r, "rdmarepl-admin");
            thread.setDaemon(true);
            return thread;
        };
        server.setExecutor(threads == 0 ? Executors.newCachedThreadPool(daemons) : Executors.newFixedThreadPool(threads, daemons));
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
            } catch (IllegalArgumentException e) {
                send(exchange, 400, "application/json", json(Map.of("error", String.valueOf(e.getMessage()))));
            } catch (IllegalStateException e) {
                send(exchange, 409, "application/json", json(Map.of("error", String.valueOf(e.getMessage()))));
            } catch (Exception e) {
                send(exchange, 500, "application/json", json(Map.of("error", String.valueOf(e.getMessage()))));
            }
        });
        return this;
    }

    /** Registers {@code GET path} answering with {@code action}'s JSON; open like /status. */
    public AdminServer query(String path, QueryAction action) {
        server.createContext(path, queryHandler(action));
        return this;
    }

    /**
     * Like {@link #query(String, QueryAction)}, the request handed from the server's thread to one of {@code answering}'s,
     * which runs the action and answers: threads of their own, e.g. at a scheduling priority the others do not have
     * (the shipper's {@code /primary}). Closed with this server. When {@code answering} refuses the request, the server's
     * thread answers it.
     */
    public AdminServer query(String path, QueryAction action, ExecutorService answering) {
        routeExecutors.add(answering);
        HttpHandler handler = queryHandler(action);
        server.createContext(path, exchange -> {
            try {
                answering.execute(() -> {
                    try {
                        handler.handle(exchange);
                    } catch (IOException | RuntimeException e) {
                        LOG.debug("{} {}: the answer did not go out ({})", exchange.getRequestMethod(), path, e.toString());
                        exchange.close();
                    }
                });
            } catch (RejectedExecutionException closing) {
                handler.handle(exchange);
            }
        });
        return this;
    }

    private static HttpHandler queryHandler(QueryAction action) {
        return exchange -> {
            if (!allowOnly(exchange, "GET")) {
                return;
            }
            try {
                send(exchange, 200, "application/json", json(action.run(parameters(exchange.getRequestURI().getRawQuery()))));
            } catch (IllegalArgumentException e) {
                send(exchange, 400, "application/json", json(Map.of("error", String.valueOf(e.getMessage()))));
            } catch (Exception e) {
                send(exchange, 500, "application/json", json(Map.of("error", String.valueOf(e.getMessage()))));
            }
        };
    }

    /**
     * A whole-number query parameter, {@code defaultValue} when absent.
     *
     * @throws IllegalArgumentException (answered 400) naming the parameter when it is not a number in {@code min..max}
     */
    public static long longParameter(Map<String, String> query, String name, long defaultValue, long min, long max) {
        String value = query.get(name);
        if (value == null || value.isEmpty()) {
            return defaultValue;
        }
        long parsed;
        try {
            parsed = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, got " + value);
        }
        if (parsed < min || parsed > max) {
            throw new IllegalArgumentException(name + " must be " + min + ".." + max + ", got " + value);
        }
        return parsed;
    }

    private static Map<String, String> parameters(String query) {
        Map<String, String> parameters = new java.util.LinkedHashMap<>();
        if (query == null || query.isEmpty()) {
            return parameters;
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String key = java.net.URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            parameters.put(key, value);
        }
        return parameters;
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
        ((ExecutorService) server.getExecutor()).shutdownNow();
        routeExecutors.forEach(ExecutorService::shutdownNow);
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

    /** The contract's mapping for every answer: the roles' are role-control records, read back with the same one. */
    private static byte[] json(Object value) throws IOException {
        return ControlJson.writeBytes(value);
    }

    private static void send(HttpExchange exchange, int code, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(code, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
