package io.rdmarepl.client;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Asks one coordinator for the topology: {@code GET {coordinator}/topology?after=<version>&wait_ms=<n>}.
 * The coordinator answers at once when its version is newer than {@code after} (or {@code after} is absent),
 * otherwise it holds the request up to {@code wait_ms} and answers with the same version.
 */
final class CoordinatorHttp {
    /** The longest hold the coordinator grants. */
    static final Duration MAX_WAIT = Duration.ofMillis(30_000);
    /** The shortest hold a client asks for: shorter turns long polling into busy polling. */
    static final Duration MIN_WAIT = Duration.ofMillis(100);
    /** Beyond the hold, how long a held request may take before the coordinator counts as unreachable. */
    private static final Duration HOLD_SLACK = Duration.ofSeconds(5);
    /** A request that should answer at once (no {@code after}) and still takes this long counts as failed. */
    private static final Duration IMMEDIATE_TIMEOUT = Duration.ofSeconds(2);

    private final HttpClient http;

    CoordinatorHttp(final Duration connectTimeout) {
        // HTTP/1.1: the coordinator speaks plain HTTP; no h2c upgrade attempt on every connection
        this.http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(connectTimeout)
            .build();
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
        final HttpRequest request = HttpRequest.newBuilder(uri)
            .timeout(timeout)
            .header("Accept", "application/json")
            .GET()
            .build();
        final HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (final HttpTimeoutException ex) {
            throw new CoordinatorException(coordinator,
                "no answer within " + timeout.toMillis() + " ms (" + ex.getMessage() + ")");
        } catch (final ConnectException ex) {
            throw new CoordinatorException(coordinator, "cannot connect (" + reason(ex) + ")");
        } catch (final IOException ex) {
            throw new CoordinatorException(coordinator, "request failed (" + reason(ex) + ")");
        }
        if (response.statusCode() != 200) {
            throw new CoordinatorException(coordinator, "answered HTTP " + response.statusCode() + " to GET " + uri +
                ": " + abbreviate(response.body()));
        }
        try {
            return TopologyParser.parse(response.body());
        } catch (final IllegalArgumentException ex) {
            throw new CoordinatorException(coordinator, "sent an invalid topology: " + ex.getMessage());
        }
    }

    static URI topologyUri(final URI coordinator, final String query) {
        final String base = coordinator.toString();
        return URI.create((base.endsWith("/") ? base : base + "/") + "topology" + query);
    }

    /**
     * The JDK client wraps the real reason in exceptions without a message (a refused connection is a
     * ConnectException around a ClosedChannelException, neither with a message): name the first one that says
     * something, or the outer one.
     */
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
