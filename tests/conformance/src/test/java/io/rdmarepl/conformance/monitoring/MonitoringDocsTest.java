package io.rdmarepl.conformance.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmarepl.conformance.monitoring.MonitoringDocs.Alert;
import io.rdmarepl.conformance.monitoring.MonitoringDocs.Query;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/monitoring's alert rules and dashboard use only series the code exports ({@link ExportedMetrics}: the roles'
 * own meter binders, scraped), with labels those series carry; every alert is explained in the README; the alerts
 * cover what an operator must be woken for. The checker itself is shown failing on planted mistakes.
 */
class MonitoringDocsTest {
    private static Map<String, Set<String>> exported;

    @BeforeAll
    static void scrapeTheRoles() {
        exported = ExportedMetrics.all();
    }

    @Test
    void alertRulesUseOnlyExportedSeries() {
        List<Alert> alerts = MonitoringDocs.alerts(MonitoringDocs.read(MonitoringDocs.ALERTS));
        assertThat(alerts).isNotEmpty();
        assertThat(checkAlerts(alerts)).as("alert rules naming what the code does not export").isEmpty();
    }

    @Test
    void dashboardUsesOnlyExportedSeries() {
        JsonNode dashboard = MonitoringDocs.dashboard(MonitoringDocs.read(MonitoringDocs.DASHBOARD));
        List<Query> queries = MonitoringDocs.queries(dashboard);
        assertThat(queries).hasSizeGreaterThan(10);
        assertThat(checkQueries(queries)).as("dashboard queries naming what the code does not export").isEmpty();
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            assertThat(variable.path("type").asText()).as("template variable %s (only datasource variables are checked)",
                    variable.path("name").asText()).isEqualTo("datasource");
        }
    }

    @Test
    void alertsWakeSomeoneForEachSignalTheIssueNames() {
        List<Alert> alerts = MonitoringDocs.alerts(MonitoringDocs.read(MonitoringDocs.ALERTS));
        Map<String, String> signals = Map.of(
                "replication lag", "rdmarepl_applier_lag_ms",
                "a degraded sync mode", "rdmarepl_shipper_sync_state",
                "commits waiting in sync mode", "rdmarepl_shipper_sync_waiting_ms",
                "WAL retained by the slot", "rdmarepl_shipper_slot_retained_wal_bytes",
                "a paused applier", "rdmarepl_applier_state",
                "a coordinator without a leader", "rdmarepl_coordinator_leader",
                "the standby link down", "rdmarepl_applier_last_message_age_ms",
                "a role not answering", "up");
        for (Map.Entry<String, String> signal : signals.entrySet()) {
            assertThat(alerts).as("a critical alert on %s (%s)", signal.getKey(), signal.getValue())
                    .anyMatch(a -> "critical".equals(a.severity()) && PromQl.parse(a.expr()).selectors().stream()
                            .anyMatch(s -> s.metric().equals(signal.getValue())));
        }
        assertThat(alerts).as("an alert on ring back-pressure")
                .anyMatch(a -> a.expr().contains("rdmarepl_shipper_back_pressure_seconds_sum"));
    }

    @Test
    void everyAlertIsCompleteAndExplainedInTheReadme() {
        List<Alert> alerts = MonitoringDocs.alerts(MonitoringDocs.read(MonitoringDocs.ALERTS));
        String readme = MonitoringDocs.read(MonitoringDocs.README);
        Set<String> names = new HashSet<>();
        for (Alert a : alerts) {
            assertThat(names.add(a.name())).as("alert %s defined once", a.name()).isTrue();
            assertThat(a.severity()).as("%s severity", a.name()).isIn("critical", "warning");
            assertThat(a.duration()).as("%s for", a.name()).matches("\\d+[smh]");
            assertThat(a.summary()).as("%s summary", a.name()).isNotBlank();
            assertThat(a.description()).as("%s description", a.name()).isNotBlank();
            assertThat(readme).as("docs/monitoring/README.md explains %s", a.name()).contains("`" + a.name() + "`");
        }
    }

    @Test
    void dashboardPanelsHaveUniqueIdsAndDoNotOverlap() {
        List<JsonNode> panels = MonitoringDocs.panels(MonitoringDocs.dashboard(MonitoringDocs.read(MonitoringDocs.DASHBOARD)));
        Set<Integer> ids = new HashSet<>();
        List<int[]> boxes = new ArrayList<>();
        for (JsonNode panel : panels) {
            String title = panel.path("title").asText();
            assertThat(ids.add(panel.path("id").asInt())).as("panel id of %s is unique", title).isTrue();
            JsonNode grid = panel.path("gridPos");
            int[] box = {grid.path("x").asInt(), grid.path("y").asInt(), grid.path("w").asInt(), grid.path("h").asInt()};
            assertThat(box[0] + box[2]).as("%s fits in 24 columns", title).isLessThanOrEqualTo(24);
            for (int[] other : boxes) {
                boolean overlap = box[0] < other[0] + other[2] && other[0] < box[0] + box[2]
                        && box[1] < other[1] + other[3] && other[1] < box[1] + box[3];
                assertThat(overlap).as("%s overlaps another panel", title).isFalse();
            }
            boxes.add(box);
            if (!panel.path("type").asText().equals("row")) {
                assertThat(panel.path("datasource").path("uid").asText()).as("%s datasource", title).isEqualTo("${datasource}");
                assertThat(panel.path("targets")).as("%s queries", title).isNotEmpty();
            }
        }
    }

    /** The same readers and checker, fed planted mistakes: each must be reported by name. */
    @Test
    void checkerReportsPlantedMistakes() {
        String yaml = """
                groups:
                  - name: planted
                    rules:
                      - alert: MadeUpMetric
                        expr: rdmarepl_applier_lag_total > 1
                        for: 1m
                        labels: {severity: critical}
                        annotations: {summary: "on {{ $labels.instance }}", description: x}
                      - alert: WrongLabel
                        expr: rdmarepl_applier_state{standby="b"} == 3
                        for: 1m
                        labels: {severity: critical}
                        annotations: {summary: "{{ $labels.slot }}", description: x}
                """;
        assertThat(checkAlerts(MonitoringDocs.alerts(yaml))).satisfiesExactlyInAnyOrder(
                p -> assertThat(p).contains("alert MadeUpMetric").contains("rdmarepl_applier_lag_total is not a series"),
                p -> assertThat(p).contains("alert WrongLabel").contains("rdmarepl_applier_state has no label standby"),
                p -> assertThat(p).contains("alert WrongLabel").contains("prints label slot"));

        String json = """
                {"panels": [{"type": "row", "title": "r", "panels": [
                  {"title": "typo", "targets": [{"refId": "A", "expr": "rate(rdmarepl_shipper_transaction_total[1m])"}]}]},
                  {"title": "grouping", "targets": [{"refId": "A", "legendFormat": "{{stanby}}",
                    "expr": "sum by (slot) (rte(rdmarepl_applier_rows_total[5m]))"}]}]}
                """;
        assertThat(checkQueries(MonitoringDocs.queries(MonitoringDocs.dashboard(json)))).satisfiesExactlyInAnyOrder(
                p -> assertThat(p).contains("panel 'typo'").contains("rdmarepl_shipper_transaction_total is not a series"),
                p -> assertThat(p).contains("panel 'grouping'").contains("groups or matches on slot"),
                p -> assertThat(p).contains("panel 'grouping'").contains("rte() is not a PromQL function"),
                p -> assertThat(p).contains("panel 'grouping'").contains("prints label stanby"));
    }

    @Test
    void parserPlacesEachPartOfAnExpression() {
        PromQl q = PromQl.parse("histogram_quantile(0.99, sum by (le, instance) (rate(rdmarepl_applier_lag_seconds_bucket[1m])))"
                + " > 1e3 and on (instance) (rdmarepl_applier_state{job=~\"rdmarepl-.*\"} offset 5m == 1) or vector(0)");
        assertThat(q.selectors()).containsExactlyInAnyOrder(
                new PromQl.Selector("rdmarepl_applier_state", Set.of("job")),
                new PromQl.Selector("rdmarepl_applier_lag_seconds_bucket", Set.of()));
        assertThat(q.groupingLabels()).containsExactlyInAnyOrder("le", "instance");
        assertThat(q.functions()).containsExactlyInAnyOrder("histogram_quantile", "sum", "rate", "vector");
    }

    private static List<String> checkAlerts(List<Alert> alerts) {
        MetricReferences references = new MetricReferences(exported);
        for (Alert a : alerts) {
            references.check("alert " + a.name(), a.expr(), a.summary(), a.description());
        }
        return references.problems();
    }

    private static List<String> checkQueries(List<Query> queries) {
        MetricReferences references = new MetricReferences(exported);
        for (Query q : queries) {
            references.check("panel '" + q.panel() + "' query " + q.refId(), q.expr(), q.legend());
        }
        return references.problems();
    }
}
