package io.rdmarepl.cli.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmarepl.cli.admin.AdminServer;
import io.rdmarepl.cli.ConfigFiles;
import io.rdmarepl.coordinator.StateStores;
import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.machine.Coordinator;
import io.rdmarepl.coordinator.store.StateStore;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;

/**
 * {@code rdmarepl coordinate --config coordinator.properties}: watches the primary and the standbys, fails
 * over when the primary fails, and serves {@code /status}, {@code /topology} (long poll), {@code /history},
 * {@code /metrics} and the token-guarded control actions the runbook commands use.
 */
@CommandLine.Command(name = "coordinate", mixinStandardHelpOptions = true,
        description = "Run the failover coordinator: detect, fence, drain, promote; serve the topology to clients.")
public final class CoordinateCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @CommandLine.Option(names = "--config", required = true, description = "coordinator.properties")
    Path config;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final CountDownLatch stopped = new CountDownLatch(1);

    @Override
    public Integer call() throws Exception {
        CoordinatorConfig settings = CoordinatorConfig.load(ConfigFiles.read(config));
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        StateStore store = StateStores.open(settings);
        Coordinator coordinator;
        AdminServer admin;
        try {
            coordinator = new Coordinator(settings, store).start();
            CoordinatorMetrics.register(registry, coordinator);
            admin = new AdminServer(settings.adminAddress(), settings.adminToken(), coordinator::healthy, coordinator::status,
                    registry, 0)
                    .query("/topology", q -> coordinator.topology().await(longParam(q, "after", -1), longParam(q, "wait_ms", 0)))
                    .query("/history", q -> Map.of("history", coordinator.history().stream().map(h -> Map.of(
                            "at_ms", h.atMs(), "from", h.from(), "to", h.to(), "reason", h.reason(), "epoch", h.epoch())).toList()))
                    .control("/failover", body -> {
                        JsonNode request = parse(body);
                        return coordinator.failover(text(request, "to"), request.path("force").asBoolean(false));
                    })
                    .control("/promote", body -> coordinator.promote(required(parse(body), "member")))
                    .control("/fence", body -> coordinator.fence(required(parse(body), "member")))
                    .start();
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            admin.close();
            coordinator.close();
            store.close();
            stopped.countDown();
        }, "rdmarepl-coordinate-shutdown"));
        spec.commandLine().getOut().printf("rdmarepl coordinate: cluster %s, %d members, store %s; admin http://%s:%d/status%n",
                settings.clusterName(), settings.members().size(), store.describe(), admin.address().getHostString(),
                admin.address().getPort());
        spec.commandLine().getOut().flush();
        stopped.await();
        return 0;
    }

    private static JsonNode parse(String body) throws java.io.IOException {
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

    private static long longParam(Map<String, String> query, String name, long defaultValue) {
        String value = query.get(name);
        if (value == null || value.isEmpty()) {
            return defaultValue;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, got " + value);
        }
    }
}
