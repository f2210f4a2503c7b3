package io.rdmarepl.cli.ship;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmarepl.cli.admin.AdminServer;
import io.rdmarepl.control.PrimaryAnswer;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.shipper.role.RunningShipper;
import io.rdmarepl.shipper.role.ShipperRole;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The shipper's admin contract as the coordinator sees it, over HTTP, with a stand-in shipper and slot. */
class ShipperEndpointTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final Stand stand = new Stand();
    private final ShipperConfig config = config();
    private final ShipperRole role = ShipperRole.waiting(config, (settings, lease) -> {
        calls.add("start " + settings.snapshotMode());
        stand.fencedReason = null; // one stand-in for every start: each starts unfenced, as a new shipper does
        return stand;
    }, () -> {
        calls.add("drop " + config.slotName());
        return true;
    });
    private final AdminServer server = ShipCommand.adminServer(config, role, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)).start();
    private final HttpClient client = HttpClient.newHttpClient();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void waitsThenActivatesFencesAndRetires() throws Exception {
        JsonNode status = json(get("/status"));
        assertThat(status.path("role_state").asText()).isEqualTo("waiting");
        assertThat(status.path("activation").asText()).isEqualTo("on-request");
        assertThat(status.path("initial_copy").isBoolean()).isTrue();
        assertThat(status.has("copy_lsn")).isTrue();
        assertThat(get("/health").statusCode()).isEqualTo(200);
        assertThat(json(get("/primary"))).as("nothing ships: nothing known of the primary")
                .isEqualTo(JSON.readTree("{\"shipping\":false,\"fenced\":false}"));

        HttpResponse<String> activated = post("/activate", "{\"epoch\": 3}");
        assertThat(activated.statusCode()).isEqualTo(200);
        assertThat(json(activated)).isEqualTo(JSON.readTree("{\"state\":\"shipping\",\"slot\":\"shipslot\",\"snapshot\":\"initial\",\"slot_dropped\":true}"));
        assertThat(calls).containsExactly("drop shipslot", "start initial");
        assertThat(json(get("/status")).path("role_state").asText()).isEqualTo("shipping");
        assertThat(json(get("/status")).path("copy_lsn").asText()).isEqualTo("0/3000060");
        assertThat(json(get("/primary"))).isEqualTo(JSON.readTree("{\"shipping\":true,\"alive\":true,\"postmaster_exited\":false,\"fenced\":false}"));
        assertThat(stand.lastPrimaryWait).as("no wait_ms: answered at once").isEqualTo(Duration.ZERO);
        assertThat(get("/primary?wait_ms=250").statusCode()).isEqualTo(200);
        assertThat(stand.lastPrimaryWait).as("the coordinator's long poll").isEqualTo(Duration.ofMillis(250));
        HttpResponse<String> notANumber = get("/primary?wait_ms=soon");
        assertThat(notANumber.statusCode()).isEqualTo(400);
        assertThat(json(notANumber).path("error").asText()).isEqualTo("wait_ms must be a whole number, got soon");
        HttpResponse<String> tooLong = get("/primary?wait_ms=60000");
        assertThat(tooLong.statusCode()).isEqualTo(400);
        assertThat(json(tooLong).path("error").asText()).isEqualTo("wait_ms must be 0..10000, got 60000");

        assertConflict(post("/activate", ""), "already shipping");
        assertConflict(post("/retire", ""), "fence it first");

        HttpResponse<String> fenced = post("/fence", "{\"reason\":\"switchover: the standby caught up\"}");
        assertThat(fenced.statusCode()).isEqualTo(200);
        assertThat(json(fenced).path("state").asText()).isEqualTo("fenced");
        assertThat(json(get("/status")).path("fenced_reason").asText())
                .isEqualTo("fenced through the admin endpoint: switchover: the standby caught up");
        assertThat(get("/health").statusCode()).isEqualTo(200);
        assertThat(json(get("/primary")).path("fenced").asBoolean()).as("the coordinator reads the fence here").isTrue();

        HttpResponse<String> resumed = post("/resume", "");
        assertThat(resumed.statusCode()).isEqualTo(200);
        assertThat(json(resumed)).isEqualTo(JSON.readTree("{\"state\":\"shipping\",\"resumed\":true}"));
        assertThat(calls).as("from the slot: nothing dropped, no copy").containsExactly("drop shipslot", "start initial", "start no_data");
        assertThat(json(get("/primary")).path("fenced").asBoolean()).isFalse();
        assertThat(post("/fence", "{\"reason\":\"switchover again\"}").statusCode()).isEqualTo(200);

        HttpResponse<String> retired = post("/retire", "");
        assertThat(retired.statusCode()).isEqualTo(200);
        assertThat(json(retired)).isEqualTo(JSON.readTree("{\"state\":\"retired\",\"slot_dropped\":true,\"synchronous_standby_names_cleared\":false}"));
        assertThat(json(get("/status")).path("role_state").asText()).isEqualTo("retired");
        assertConflict(post("/resume", ""), "nothing to resume: the shipper is retired");
        JsonNode terms = json(post("/lease", ""));
        assertThat(terms.path("lease_ms").asLong()).as("fence.lease.ms=auto with admin.token set").isEqualTo(2000);
        assertThat(terms.path("lease_check_ms").asLong()).isEqualTo(100);
        assertThat(terms.path("self_fence_timeout_ms").asLong()).isEqualTo(2000);
        assertThat(terms.has("replication_mode")).as("a retired shipper promises nothing").isFalse();
    }

    @Test
    void holdsAtMostEightPrimaryRequestsAndAnswersTheNextAtOnce() throws Exception {
        assertThat(post("/activate", "{\"epoch\": 3}").statusCode()).isEqualTo(200);
        List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> answers = new java.util.ArrayList<>();
        for (int i = 0; i < ShipCommand.MAX_HELD_PRIMARY_REQUESTS + 1; i++) {
            answers.add(client.sendAsync(HttpRequest.newBuilder(uri("/primary?wait_ms=1500")).GET().build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        for (var answer : answers) {
            assertThat(answer.get(10, java.util.concurrent.TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        assertThat(stand.primaryWaits).filteredOn(w -> w.equals(Duration.ofMillis(1500))).hasSize(ShipCommand.MAX_HELD_PRIMARY_REQUESTS);
        assertThat(stand.primaryWaits).filteredOn(Duration.ZERO::equals).as("the one past the cap, answered at once").hasSize(1);
    }

    @Test
    void refusesAMalformedEpoch() throws Exception {
        for (String body : List.of("{\"epoch\": 0}", "{\"epoch\": -2}", "{\"epoch\": \"7\"}", "{\"epoch\": 1.5}", "7", "not json")) {
            HttpResponse<String> answer = post("/activate", body);
            assertThat(answer.statusCode()).as(body).isEqualTo(400);
            assertThat(json(answer).path("error").asText()).as(body).containsAnyOf("epoch", "JSON object");
        }
        assertThat(calls).isEmpty();
        assertThat(post("/activate", "{\"epoch\": null}").statusCode()).isEqualTo(200);
    }

    @Test
    void controlActionsNeedTheToken() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(uri("/activate")).POST(HttpRequest.BodyPublishers.noBody()).build();
        assertThat(client.send(request, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);
        assertThat(calls).isEmpty();
    }

    private void assertConflict(HttpResponse<String> answer, String reason) throws Exception {
        assertThat(answer.statusCode()).isEqualTo(409);
        assertThat(json(answer).path("error").asText()).contains(reason);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return client.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return client.send(HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer t0ken")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.address().getPort() + path);
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        return JSON.readTree(response.body());
    }

    private static ShipperConfig config() {
        Properties p = new Properties();
        p.setProperty("standbys", "a");
        p.setProperty("standby.a.uri", "shm:///dev/shm/a");
        p.setProperty("slot.name", "shipslot");
        p.setProperty("activation", "on-request");
        p.setProperty("admin.address", "127.0.0.1:0");
        p.setProperty("admin.token", "t0ken");
        return ShipperConfig.load(p);
    }

    /** Stands in for a started shipper: copied already, at 0/3000060. */
    private static final class Stand implements RunningShipper {
        private volatile String fencedReason;
        private volatile Duration lastPrimaryWait;
        private final List<Duration> primaryWaits = new CopyOnWriteArrayList<>();

        @Override
        public void fence(String reason) {
            fencedReason = reason;
        }

        @Override
        public boolean fenced() {
            return fencedReason != null;
        }

        @Override
        public void renewLease() {
        }

        @Override
        public boolean healthy() {
            return !fenced();
        }

        @Override
        public String failure() {
            return null;
        }

        @Override
        public PrimaryAnswer primary(Duration wait) throws InterruptedException {
            lastPrimaryWait = wait;
            primaryWaits.add(wait);
            // the fake shipper's long poll, held as long as asked (the postmaster never exits here): not a wait for something
            Thread.sleep(wait.toMillis());
            return PrimaryAnswer.shipping(true, false, null);
        }

        @Override
        public Map<String, Object> status() {
            Map<String, Object> status = new LinkedHashMap<>();
            status.put("state", fenced() ? "fenced" : "streaming");
            status.put("fenced_reason", fencedReason);
            status.put("initial_copy", false);
            status.put("copy_lsn", "0/3000060");
            return status;
        }

        @Override
        public void close(Duration drainTimeout) {
        }

        @Override
        public void close() {
        }
    }
}
