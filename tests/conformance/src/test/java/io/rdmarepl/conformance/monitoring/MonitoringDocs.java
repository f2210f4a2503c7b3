package io.rdmarepl.conformance.monitoring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/** Reads docs/monitoring: the alert rules (Prometheus YAML) and the dashboard (Grafana JSON). */
final class MonitoringDocs {
    static final Path DIRECTORY = repositoryRoot().resolve("docs/monitoring");
    static final Path ALERTS = DIRECTORY.resolve("rdmarepl-alerts.yml");
    static final Path DASHBOARD = DIRECTORY.resolve("rdmarepl-dashboard.json");
    static final Path README = DIRECTORY.resolve("README.md");

    /** One alerting rule. */
    record Alert(String group, String name, String expr, String duration, String severity, String summary, String description) {
    }

    /** One query of a dashboard panel. */
    record Query(String panel, String refId, String expr, String legend) {
    }

    private MonitoringDocs() {
    }

    @SuppressWarnings("unchecked")
    static List<Alert> alerts(String yaml) {
        Map<String, Object> root = new Yaml().load(yaml);
        List<Alert> alerts = new ArrayList<>();
        for (Map<String, Object> group : (List<Map<String, Object>>) root.get("groups")) {
            for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                Map<String, Object> labels = (Map<String, Object>) rule.getOrDefault("labels", Map.of());
                Map<String, Object> annotations = (Map<String, Object>) rule.getOrDefault("annotations", Map.of());
                alerts.add(new Alert(String.valueOf(group.get("name")), (String) rule.get("alert"), String.valueOf(rule.get("expr")),
                        (String) rule.get("for"), (String) labels.get("severity"), (String) annotations.get("summary"),
                        (String) annotations.get("description")));
            }
        }
        return alerts;
    }

    /** Every panel, rows' nested panels included, in order. */
    static List<JsonNode> panels(JsonNode dashboard) {
        List<JsonNode> panels = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            panels.add(panel);
            panel.path("panels").forEach(panels::add);
        }
        return panels;
    }

    static List<Query> queries(JsonNode dashboard) {
        List<Query> queries = new ArrayList<>();
        for (JsonNode panel : panels(dashboard)) {
            for (JsonNode target : panel.path("targets")) {
                queries.add(new Query(panel.path("title").asText(), target.path("refId").asText(), target.path("expr").asText(),
                        target.path("legendFormat").asText()));
            }
        }
        return queries;
    }

    static JsonNode dashboard(String json) {
        try {
            return new ObjectMapper().readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("docs/monitoring/rdmarepl-alerts.yml"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("no docs/monitoring/rdmarepl-alerts.yml above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }
}
