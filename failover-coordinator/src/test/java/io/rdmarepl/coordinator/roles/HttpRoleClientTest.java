package io.rdmarepl.coordinator.roles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The client against a real HTTP server playing a role's admin endpoint. */
@Timeout(30)
class HttpRoleClientTest {
    private final Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();
    private final List<String> seen = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private HttpServer role;
    private URI admin;
    private final RoleClient client = new HttpRoleClient("secret");

    @BeforeEach
    void start() throws IOException {
        role = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        role.setExecutor(Executors.newCachedThreadPool());
        role.createContext("/status", exchange -> answer(exchange, 200, "{\"state\":\"streaming\"}"));
        role.createContext("/drain", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            seen.add(exchange.getRequestMethod() + " " + exchange.getRequestHeaders().getFirst("Authorization") + " "
                    + exchange.getRequestHeaders().getFirst("Content-Type") + " " + body);
            answer(exchange, 200, "{\"applied_lsn\":\"0/16B3748\"}");
        });
        role.createContext("/promote", exchange -> answer(exchange, 409, "epoch 3 is older than the ring's epoch 4\n"));
        role.createContext("/fence", exchange -> {
            exchange.getRequestBody().readAllBytes();
            answer(exchange, 401, "{\"error\":\"missing or wrong control token\"}");
        });
        role.createContext("/moved", exchange -> {
            exchange.getResponseHeaders().set("Location", admin + "/status");
            answer(exchange, 302, "");
        });
        role.createContext("/slow", exchange -> {
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            answer(exchange, 200, "{}");
        });
        role.start();
        admin = URI.create("http://127.0.0.1:" + role.getAddress().getPort());
    }

    private void answer(HttpExchange exchange, int code, String body) throws IOException {
        clientPorts.add(exchange.getRemoteAddress().getPort());
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @AfterEach
    void stop() {
        release.countDown();
        role.stop(0);
    }

    @Test
    void shouldReadAndPostWithTheTokenOverOneKeptConnection() {
        for (int i = 0; i < 20; i++) {
            assertThat(client.status(admin, Duration.ofSeconds(5)).path("state").asText()).isEqualTo("streaming");
        }
        assertThat(client.post(admin, "/drain", "{\"epoch\":2}", Duration.ofSeconds(5)).path("applied_lsn").asText())
                .isEqualTo("0/16B3748");
        assertThat(client.post(admin, "/drain", null, Duration.ofSeconds(5)).path("applied_lsn").asText()).isEqualTo("0/16B3748");

        assertThat(seen).containsExactly("POST Bearer secret application/json {\"epoch\":2}", "POST Bearer secret application/json ");
        // every poll on a connection of its own would cost a handshake and a port each time
        assertThat(clientPorts).as("client ports of 22 requests in a row").hasSize(1);
    }

    @Test
    void shouldNameTheEndpointAndItsAnswerWhenItRefusesAndKeepTheConnection() {
        assertThatThrownBy(() -> client.post(admin, "/promote", "{\"epoch\":3}", Duration.ofSeconds(5)))
                .isInstanceOf(RoleException.class)
                .hasMessage("POST " + admin + "/promote answered 409: epoch 3 is older than the ring's epoch 4");
        client.status(admin, Duration.ofSeconds(5));
        assertThat(clientPorts).as("the refusal was read to its end: its connection serves the next request").hasSize(1);
    }

    @Test
    void shouldNameARefusedTokenAndNotFollowRedirects() {
        assertThatThrownBy(() -> client.post(admin, "/fence", "{}", Duration.ofSeconds(5)))
                .isInstanceOf(RoleException.class)
                .hasMessage("POST " + admin + "/fence answered 401: {\"error\":\"missing or wrong control token\"}");
        assertThatThrownBy(() -> client.get(admin, "/moved", Duration.ofSeconds(5)))
                .isInstanceOf(RoleException.class)
                .hasMessageStartingWith("GET " + admin + "/moved answered 302");
    }

    @Test
    void shouldGiveUpOnASilentEndpointAfterTheTimeoutAndNotReuseItsConnection() {
        long start = System.nanoTime();
        assertThatThrownBy(() -> client.get(admin, "/slow", Duration.ofMillis(100)))
                .isInstanceOf(RoleException.class)
                .hasMessage("GET " + admin + "/slow: no answer within 100 ms");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5_000);
        release.countDown();
        assertThat(client.status(admin, Duration.ofSeconds(5)).path("state").asText()).isEqualTo("streaming");
    }

    @Test
    void shouldNameAnEndpointNobodyListensOn() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        URI nobody = URI.create("http://127.0.0.1:" + port);
        assertThatThrownBy(() -> client.status(nobody, Duration.ofSeconds(1)))
                .isInstanceOf(RoleException.class)
                .hasMessageStartingWith("GET " + nobody + "/status unreachable: ")
                .hasMessageContaining("refused");
    }
}
