package io.rdmarepl.cli.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmarepl.cli.admin.AdminServer;
import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.machine.Coordinator;
import java.io.IOException;
import java.util.Map;

/**
 * The coordinator's admin endpoint, not started yet: {@code /health}, {@code /status}, {@code /metrics},
 * {@code GET /topology?after=V&wait_ms=N} (the long poll clients follow), {@code GET /history}, and the
 * token-guarded {@code POST /failover}, {@code /switchover}, {@code /promote}, {@code /fence}, {@code /rejoin}: the routes
 * {@code rdmarepl coordinate} serves. The harness's in-process coordinator (demo, benchmarks) serves the same ones.
 */
public final class CoordinatorEndpoint {
    private static final ObjectMapper JSON = new ObjectMapper();

    private CoordinatorEndpoint() {
    }

    public static AdminServer adminServer(Coordinator coordinator, CoordinatorConfig settings, PrometheusMeterRegistry registry) {
        // threads 0: one per request in flight, since every following client holds a long poll
        return new AdminServer(settings.adminAddress(), settings.adminToken(), coordinator::healthy, coordinator::status, registry, 0)
                .query("/topology", q -> coordinator.topology().await(
                        AdminServer.longParameter(q, "after", -1, -1, Long.MAX_VALUE), AdminServer.longParameter(q, "wait_ms", 0, 0, Long.MAX_VALUE),
                        AdminServer.longParameter(q, "max_age_ms", 0, 0, Long.MAX_VALUE)))
                .query("/history", q -> Map.of("history", coordinator.history().stream().map(h -> Map.of(
                        "at_ms", h.atMs(), "from", h.from(), "to", h.to(), "reason", h.reason(), "epoch", h.epoch())).toList()))
                .control("/failover", body -> {
                    JsonNode request = parse(body);
                    return coordinator.failover(text(request, "to"), request.path("force").asBoolean(false));
                })
                .control("/switchover", body -> coordinator.switchover(text(parse(body), "to")))
                .control("/rejoin", body -> coordinator.rejoin(required(parse(body), "member")))
                .control("/promote", body -> coordinator.promote(required(parse(body), "member")))
                .control("/fence", body -> coordinator.fence(required(parse(body), "member")));
    }

    private static JsonNode parse(String body) throws IOException {
        return body == null || body.isBlank() ? JSON.createObjectNode() : JSON.readTree(body);
    }

    private static String text(JsonNode request, String field) {
        JsonNode value = request.get(field);
        return value == null || value.isNull() || value.asText().isEmpty() ? null : value.asText();
    }

    private static String required(JsonNode request, String field) {
        String value = text(request, field);
        if (value == null) {
            throw new IllegalArgumentException("the request needs \"" + field + "\"");
        }
        return value;
    }
}
