package io.rdmarepl.client;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The coordinator's topology endpoint, served for tests until the real coordinator exists: a real HTTP server on a
 * free port of 127.0.0.1 with the long-poll contract. {@code GET /topology?after=<version>&wait_ms=<n>} answers at
 * once when its version is greater than {@code after} (or {@code after} is absent), otherwise holds the request up
 * to {@code wait_ms} (at most 30000) and answers with the same version.
 */
final class TopologyServer implements AutoCloseable {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final long MAX_WAIT_MS = 30_000;

    private final HttpServer http;
    private final ExecutorService handlers;
    private final AtomicInteger requests = new AtomicInteger();
    /** Requests inside awaitNewerThan; only those waiting are ever seen, as it holds the monitor otherwise. */
    private int held;
    private long version;
    private ObjectNode document;
    private boolean closed;

    private TopologyServer(final HttpServer http, final ExecutorService handlers) {
        this.http = http;
        this.handlers = handlers;
    }

    /**
     * Start serving; until the first publish, the topology has version 0, epoch 0, phase SUSPECT and no primary.
     */
    static TopologyServer start() {
        return start(0);
    }

    /**
     * @param port 0 for a free one; a fixed one to come back where a stopped coordinator was
     */
    static TopologyServer start(final int port) {
        try {
            final HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
            // held long polls each take a thread
            final ExecutorService handlers = Executors.newCachedThreadPool((runnable) -> {
                final Thread thread = new Thread(runnable, "test-coordinator");
                thread.setDaemon(true);
                return thread;
            });
            final TopologyServer server = new TopologyServer(http, handlers);
            server.document = document(0, "SUSPECT", null, List.of());
            http.createContext("/topology", server::handle);
            http.setExecutor(handlers);
            http.start();
            return server;
        } catch (final IOException ex) {
            throw new UncheckedIOException("could not start the test coordinator", ex);
        }
    }

    URI url() {
        return URI.create("http://" + http.getAddress().getHostString() + ":" + http.getAddress().getPort());
    }

    /**
     * Publish the next version and answer held polls at once.
     *
     * @param primary null while a failover is in progress
     * @return the version published
     */
    synchronized long publish(final long epoch, final String phase, final Member primary, final List<Member> members) {
        return publish(document(epoch, phase, primary, members));
    }

    /**
     * Publish a document as is (unknown fields included); its "version" is set to the next version.
     */
    synchronized long publish(final ObjectNode next) {
        final long published = publishQuietly(next);
        notifyAll();
        return published;
    }

    /**
     * Publish the next version without answering held polls: only clients that ask again (or refresh) see it.
     */
    synchronized long publishQuietly(final ObjectNode next) {
        version++;
        document = next.deepCopy();
        document.put("version", version);
        return version;
    }

    static ObjectNode document(final long epoch, final String phase, final Member primary, final List<Member> members) {
        final ObjectNode doc = MAPPER.createObjectNode();
        doc.put("cluster", "main");
        doc.put("version", 0);
        doc.put("epoch", epoch);
        doc.put("phase", phase);
        if (primary == null) {
            doc.putNull("primary");
        } else {
            doc.putObject("primary").put("name", primary.name()).put("jdbc_url", primary.jdbcUrl());
        }
        final ArrayNode array = doc.putArray("members");
        for (final Member member : members) {
            array.addObject().put("name", member.name()).put("jdbc_url", member.jdbcUrl()).put("role", member.role());
        }
        return doc;
    }

    /**
     * Answer the held polls now with the current document (e.g. one published quietly).
     */
    synchronized void answerHeldPolls() {
        notifyAll();
    }

    /**
     * @return how many requests arrived so far.
     */
    int requests() {
        return requests.get();
    }

    private void handle(final HttpExchange exchange) throws IOException {
        requests.incrementAndGet();
        try (exchange) {
            final Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
            final String body = awaitNewerThan(query.get("after"), Math.min(MAX_WAIT_MS,
                Long.parseLong(query.getOrDefault("wait_ms", "0"))));
            final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized String awaitNewerThan(final String after, final long waitMs) throws InterruptedException {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        held++;
        try {
            while (after != null && version <= Long.parseLong(after) && !closed) {
                final long remainingNs = deadlineNs - System.nanoTime();
                if (remainingNs <= 0) {
                    break;
                }
                TimeUnit.NANOSECONDS.timedWait(this, remainingNs);
            }
        } finally {
            held--;
        }
        return document.toString();
    }

    /**
     * @return the long polls held now (waiting for a version newer than the one they have)
     */
    synchronized int heldPolls() {
        return held;
    }

    private static Map<String, String> query(final String rawQuery) {
        final Map<String, String> params = new HashMap<>();
        if (rawQuery == null) {
            return params;
        }
        for (final String pair : rawQuery.split("&")) {
            final int eq = pair.indexOf('=');
            params.put(eq < 0 ? pair : pair.substring(0, eq), eq < 0 ? "" : pair.substring(eq + 1));
        }
        return params;
    }

    /**
     * Stop: held polls are answered, then the port is closed, so clients see a refused connection.
     */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        http.stop(0);
        handlers.shutdownNow();
    }
}
