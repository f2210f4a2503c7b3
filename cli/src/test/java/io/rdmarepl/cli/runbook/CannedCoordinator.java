package io.rdmarepl.cli.runbook;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real HTTP server standing in for the coordinator's admin endpoint: it answers each path with a canned
 * status and JSON body (as the coordinator's contract says it would) and records every request it gets.
 */
final class CannedCoordinator implements AutoCloseable {
    /** One request as the server received it. */
    record Received(String method, String path, String authorization, String contentType, String body) {
    }

    private record Canned(int status, String body, long delayMs) {
    }

    private static final Canned NOT_FOUND = new Canned(404, "{\"error\":\"no such path\"}", 0);

    private final HttpServer server;
    private final Map<String, Canned> answers = new ConcurrentHashMap<>();
    private final List<Received> received = new CopyOnWriteArrayList<>();

    CannedCoordinator() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String path = exchange.getRequestURI().getPath();
            received.add(new Received(exchange.getRequestMethod(), path, exchange.getRequestHeaders().getFirst("Authorization"),
                    exchange.getRequestHeaders().getFirst("Content-Type"), body));
            Canned canned = answers.getOrDefault(exchange.getRequestMethod() + " " + path, NOT_FOUND);
            if (canned.delayMs() > 0) {
                try {
                    // a slow coordinator, as the test asked: the fake's behaviour under test, not a wait for something
                    Thread.sleep(canned.delayMs());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] bytes = canned.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            try {
                exchange.sendResponseHeaders(canned.status(), bytes.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            } catch (IOException e) {
                // the client gave up waiting (timeout tests): nothing to answer
            }
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
    }

    CannedCoordinator answer(String methodAndPath, int status, String body) {
        answers.put(methodAndPath, new Canned(status, body, 0));
        return this;
    }

    CannedCoordinator answerAfter(String methodAndPath, long delayMs, int status, String body) {
        answers.put(methodAndPath, new Canned(status, body, delayMs));
        return this;
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    List<Received> received() {
        return List.copyOf(received);
    }

    /** A URL where nothing listens: a port the OS just handed out and took back. */
    static String closedPortUrl() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return "http://127.0.0.1:" + socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
