package io.rdmarepl.coordinator.handover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.rdmarepl.coordinator.config.MemberConfig;
import io.rdmarepl.coordinator.roles.HttpRoleClient;
import io.rdmarepl.coordinator.roles.RoleException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A rejoin's calls to the roles, against real HTTP servers playing the follower's and the new primary's endpoints. */
@Timeout(30)
class ReverseRolesTest {
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final AtomicInteger retireRefusals = new AtomicInteger();
    private HttpServer follower;
    private HttpServer primary;
    private final ReverseRoles roles = new ReverseRoles(new HttpRoleClient("secret"));

    @BeforeEach
    void start() throws IOException {
        follower = server("a");
        primary = server("b");
    }

    @AfterEach
    void stop() {
        follower.stop(0);
        primary.stop(0);
    }

    @Test
    void shouldDeactivateTheFollowersApplierWhenTheNewPrimarysShipperCannotStart() {
        primary.removeContext("/activate");
        primary.createContext("/activate", exchange -> answer(exchange, "b /activate", 409,
                "{\"error\":\"already shipping: fence this shipper first (POST /fence) to start over\"}"));

        assertThatThrownBy(() -> roles.follow(member("b", primary), member("a", follower), 3))
                .isInstanceOf(RoleException.class)
                .hasMessageContaining("already shipping")
                .hasMessageContaining("a's applier was deactivated again");
        assertThat(calls).containsExactly("a /activate {\"epoch\":3}", "b /activate {\"epoch\":3}", "a /deactivate ");
    }

    @Test
    void shouldLeaveTheFollowersApplierFollowingWhenBothStart() {
        roles.follow(member("b", primary), member("a", follower), 3);

        assertThat(calls).containsExactly("a /activate {\"epoch\":3}", "b /activate {\"epoch\":3}");
    }

    @Test
    void shouldNotStartTheNewPrimarysShipperWhenTheFollowersApplierRefuses() {
        follower.removeContext("/activate");
        follower.createContext("/activate", exchange -> answer(exchange, "a /activate", 409, "{\"error\":\"already following b\"}"));

        assertThatThrownBy(() -> roles.follow(member("b", primary), member("a", follower), 3))
                .isInstanceOf(RoleException.class).hasMessageContaining("already following b");
        assertThat(calls).containsExactly("a /activate {\"epoch\":3}");
    }

    @Test
    void shouldFenceThenRetireTheFollowersShipperAskingAgainUntilItAnswers() {
        retireRefusals.set(2); // still starting: not ready twice, then it answers
        follower.createContext("/fence", exchange -> answer(exchange, "a /fence", 200, "{\"state\":\"fenced\"}"));
        follower.createContext("/retire", exchange -> {
            if (retireRefusals.getAndDecrement() > 0) {
                answer(exchange, "a /retire", 503, "{\"error\":\"starting\"}");
            } else {
                answer(exchange, "a /retire", 200, "{\"state\":\"retired\",\"slot_dropped\":true}");
            }
        });

        ReverseRoles.Retirement retired = roles.retireShipper(member("a", follower), Duration.ofSeconds(10));

        assertThat(retired.done()).isTrue();
        assertThat(retired.message()).isEqualTo("a's shipper retired and its slot dropped");
        assertThat(calls).containsExactly("a /fence {\"reason\":\"a rejoins as a standby\"}", "a /retire ",
                "a /fence {\"reason\":\"a rejoins as a standby\"}", "a /retire ",
                "a /fence {\"reason\":\"a rejoins as a standby\"}", "a /retire ");
    }

    @Test
    void shouldGiveUpRetiringAShipperThatDoesNotAnswerWithinTheWaitAndSaySo() throws IOException {
        URI nobody;
        try (ServerSocket free = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            nobody = URI.create("http://127.0.0.1:" + free.getLocalPort());
        }
        MemberConfig gone = new MemberConfig("a", "jdbc:postgresql://127.0.0.1/postgres", Optional.empty(), Optional.of(nobody));

        long startNs = System.nanoTime();
        ReverseRoles.Retirement retired = roles.retireShipper(gone, Duration.ofMillis(600));

        assertThat(retired.done()).isFalse();
        assertThat(retired.message()).startsWith("a's shipper did not retire yet (POST " + nobody + "/fence unreachable")
                .contains("its epoch is older than theirs");
        assertThat(Duration.ofNanos(System.nanoTime() - startNs)).isLessThan(Duration.ofSeconds(5));
    }

    private HttpServer server(String name) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/activate", exchange -> answer(exchange, name + " /activate", 200, "{\"state\":\"streaming\"}"));
        server.createContext("/deactivate", exchange -> answer(exchange, name + " /deactivate", 200, "{\"state\":\"waiting\"}"));
        server.start();
        return server;
    }

    private void answer(HttpExchange exchange, String call, int code, String body) throws IOException {
        calls.add(call + " " + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static MemberConfig member(String name, HttpServer server) {
        URI admin = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        return new MemberConfig(name, "jdbc:postgresql://127.0.0.1/postgres", Optional.of(admin), Optional.of(admin));
    }
}
