package io.rdmarepl.cli.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AdminServerTest {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final AtomicBoolean healthy = new AtomicBoolean(true);
    private final AdminServer server = new AdminServer(new InetSocketAddress("127.0.0.1", 0), "s3cret", healthy::get,
            () -> Map.of("state", "streaming"), registry)
            .control("/fence", body -> Map.of("fenced", true))
            .start();
    private final HttpClient client = HttpClient.newHttpClient();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void shouldAnswerWithoutNaglesDelay() {
        // the server instance exists: the JDK reads the property when the first server starts, so it is set by then
        assertThat(System.getProperty(AdminServer.NO_DELAY_PROPERTY)).isEqualTo("true");
    }

    @Test
    void shouldServeHealthStatusAndMetrics() throws Exception {
        registry.counter("rdmarepl_test_events").increment(3);
        assertThat(get("/health").statusCode()).isEqualTo(200);
        healthy.set(false);
        assertThat(get("/health").statusCode()).isEqualTo(503);
        assertThat(get("/status").body()).isEqualTo("{\"state\":\"streaming\"}");
        assertThat(get("/metrics").body()).contains("rdmarepl_test_events_total 3.0");
    }

    @Test
    void shouldRequireTheTokenForControlActions() throws Exception {
        assertThat(post("/fence", null).statusCode()).isEqualTo(401);
        assertThat(post("/fence", "wrong").statusCode()).isEqualTo(401);
        HttpResponse<String> ok = post("/fence", "s3cret");
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.body()).isEqualTo("{\"fenced\":true}");
        assertThat(get("/fence").statusCode()).isEqualTo(405);
    }

    @Test
    void shouldAnswerARouteOnItsOwnThreadsAndCloseThemWithTheServer() throws Exception {
        ExecutorService answering = Executors.newSingleThreadExecutor(task -> new Thread(task, "route-thread"));
        server.query("/where", query -> Map.of("answered", Thread.currentThread().getName() + " " + query.get("n")), answering);

        HttpResponse<String> answer = get("/where?n=7");

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo("{\"answered\":\"route-thread 7\"}");
        assertThat(get("/where?n=8").body()).contains("route-thread"); // the thread stays with the route
        server.close();
        assertThat(answering.isShutdown()).isTrue();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return client.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody());
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.address().getPort() + path);
    }
}
