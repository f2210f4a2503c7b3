package io.rdmarepl.client;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Asks one coordinator for the topology: {@code GET {coordinator}/topology?after=<version>&wait_ms=<n>}.
 * The coordinator answers at once when its version is newer than {@code after} (or {@code after} is absent),
 * otherwise it holds the request up to {@code wait_ms} and answers with the same version.
 * <p>
 * Each request runs on the caller's thread over a kept-alive connection ({@link HttpURLConnection}, never through a
 * proxy), as the coordinator's own role client does: java.net.http's client hands every exchange to its selector and
 * executor threads and back. A failover is when this client is busiest (every failed transaction asks for the
 * topology), on a CPU the application shares with it; there those hand-offs and the JIT compiling them took 7–9 ms
 * of CPU per failover in {@code rdmarepl bench failover --layout hosts}. A blocking socket read does not see
 * {@link Thread#interrupt()}: {@link #close()} closes the connections of requests in flight instead.
 */
final class CoordinatorHttp implements AutoCloseable {
    /** The longest hold the coordinator grants. */
    static final Duration MAX_WAIT = Duration.ofMillis(30_000);
    /** The shortest hold a client asks for: shorter turns long polling into busy polling. */
    static final Duration MIN_WAIT = Duration.ofMillis(100);
    /** Beyond the hold, how long a held request may take before the coordinator counts as unreachable. */
    private static final Duration HOLD_SLACK = Duration.ofSeconds(5);
    /** A request that should answer at once (no {@code after}) and still takes this long counts as failed. */
    private static final Duration IMMEDIATE_TIMEOUT = Duration.ofSeconds(2);

    private final int connectTimeoutMs;
    private final Set<HttpURLConnection> inFlight = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    CoordinatorHttp(final Duration connectTimeout) {
        this.connectTimeoutMs = clampMs(connectTimeout);
    }

    /**
     * Long-poll: returns when the coordinator has a version newer than {@code afterVersion}, or when its knowledge
     * is older than {@code maxAge}, or after about {@code wait} with the same version.
     */
    Topology awaitNewer(final URI coordinator, final long afterVersion, final Duration wait, final Duration maxAge)
        throws CoordinatorException, InterruptedException {
        // max_age_ms: a coordinator whose state grows older than this answers at once (older ones ignore it)
        final URI uri = topologyUri(coordinator, "?after=" + afterVersion + "&wait_ms=" + wait.toMillis() +
            "&max_age_ms=" + maxAge.toMillis());
        return get(coordinator, uri, wait.plus(HOLD_SLACK));
    }

    /**
     * The coordinator's current topology, without waiting for a change.
     */
    Topology fetchNow(final URI coordinator) throws CoordinatorException, InterruptedException {
        return get(coordinator, topologyUri(coordinator, ""), IMMEDIATE_TIMEOUT);
    }

    private Topology get(final URI coordinator, final URI uri, final Duration timeout)
        throws CoordinatorException, InterruptedException {
        final int timeoutMs = clampMs(timeout);
        HttpURLConnection connection = null;
        boolean connected = false;
        try {
            connection = (HttpURLConnection) uri.toURL().openConnection(Proxy.NO_PROXY);
            connection.setConnectTimeout(Math.min(connectTimeoutMs, timeoutMs));
            connection.setReadTimeout(timeoutMs);
            connection.setUseCaches(false);
            connection.setInstanceFollowRedirects(false);
            connection.setRequestProperty("Accept", "application/json");
            inFlight.add(connection);
            if (closed) {
                throw closedWhileAsking(connection);
            }
            connection.connect();
            connected = true;
            final int code = connection.getResponseCode();
            // read to the end either way: only a fully read answer leaves the connection for the next request
            final String body = readFully(code >= 400 ? connection.getErrorStream() : connection.getInputStream());
            if (code != 200) {
                throw new CoordinatorException(coordinator, "answered HTTP " + code + " to GET " + uri + ": " +
                    abbreviate(body));
            }
            try {
                return TopologyParser.parse(body);
            } catch (final IllegalArgumentException ex) {
                throw new CoordinatorException(coordinator, "sent an invalid topology: " + ex.getMessage());
            }
        } catch (final SocketTimeoutException ex) {
            disconnect(connection);
            if (closed) {
                throw closedWhileAsking(connection);
            }
            throw new CoordinatorException(coordinator, connected ? "no answer within " + timeoutMs + " ms" :
                "cannot connect (no connection within " + Math.min(connectTimeoutMs, timeoutMs) + " ms)");
        } catch (final ConnectException ex) {
            throw new CoordinatorException(coordinator, "cannot connect (" + reason(ex) + ")");
        } catch (final IOException ex) {
            disconnect(connection);
            if (closed) {
                throw closedWhileAsking(connection);
            }
            throw new CoordinatorException(coordinator, "request failed (" + reason(ex) + ")");
        } finally {
            if (connection != null) {
                inFlight.remove(connection);
            }
        }
    }

    /**
     * Ends the requests in flight (their threads get {@link InterruptedException}) and every later one.
     */
    @Override
    public void close() {
        closed = true;
        for (final HttpURLConnection connection : inFlight) {
            connection.disconnect();
        }
    }

    private static InterruptedException closedWhileAsking(final HttpURLConnection connection) {
        disconnect(connection);
        return new InterruptedException("the topology client was closed");
    }

    private static String readFully(final InputStream in) throws IOException {
        if (in == null) {
            return "";
        }
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** A connection left mid-answer must not be handed to the next request. */
    private static void disconnect(final HttpURLConnection connection) {
        if (connection != null) {
            connection.disconnect();
        }
    }

    private static int clampMs(final Duration duration) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, duration.toMillis()));
    }

    static URI topologyUri(final URI coordinator, final String query) {
        final String base = coordinator.toString();
        return URI.create((base.endsWith("/") ? base : base + "/") + "topology" + query);
    }

    /** Names the first exception in the chain that says something, or the outer one. */
    private static String reason(final Throwable ex) {
        for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
            if (cause.getMessage() != null) {
                return cause.getClass().getSimpleName() + ": " + cause.getMessage();
            }
        }
        return ex.getClass().getSimpleName();
    }

    private static String abbreviate(final String text) {
        final String line = text.replace('\n', ' ');
        return line.length() <= 200 ? line : line.substring(0, 200) + "...";
    }
}
