package io.rdmarepl.conformance.monitoring;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmarepl.applier.apply.ApplierMetrics;
import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.cli.coordinate.CoordinatorMetrics;
import io.rdmarepl.shipper.capture.SlotRetention;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.shipper.config.StandbyConfig;
import io.rdmarepl.shipper.ship.ShipMetrics;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The series each role's {@code GET /metrics} serves, as Prometheus names them: each role's own meter binders
 * register into a {@link PrometheusMeterRegistry} (the one {@code rdmarepl ship}, {@code apply} and
 * {@code coordinate} serve), with nothing running behind them (gauges read NaN), and the scrape is read back. So the
 * names, suffixes ({@code _total}, {@code _seconds_bucket}, ...) and labels are Micrometer's own rendering.
 * Not here: {@code rdmarepl_applier_rows_missing_total{table,operation}}, registered at the first missing row.
 */
final class ExportedMetrics {
    /** Series Prometheus itself adds for every target it scrapes. */
    static final Set<String> PROMETHEUS_SERIES = Set.of("up");
    /** Labels Prometheus itself adds to every series of a target. */
    static final Set<String> TARGET_LABELS = Set.of("instance", "job");

    private ExportedMetrics() {
    }

    /** Series name, then its label names, over the shipper, the applier and the coordinator. */
    static Map<String, Set<String>> all() {
        Map<String, Set<String>> series = new TreeMap<>();
        series.putAll(scrape(ExportedMetrics::shipper));
        series.putAll(scrape(registry -> new ApplierMetrics(registry).statusGauges(null)));
        series.putAll(scrape(registry -> CoordinatorMetrics.register(registry, null)));
        return series;
    }

    /** As {@code rdmarepl ship} registers them: the role's slot gauge, one standby's meters, sync mode's gauges. */
    private static void shipper(PrometheusMeterRegistry registry) {
        Properties p = new Properties();
        p.setProperty("standbys", "b");
        p.setProperty("standby.b.uri", "shm:///dev/shm/rdmarepl-conformance");
        p.setProperty("database.host", "127.0.0.1");
        p.setProperty("database.port", "1"); // nothing listens: the slot gauge reads NaN at once
        ShipperConfig config = ShipperConfig.load(p);
        SlotRetention.register(registry, config);
        ShipMetrics metrics = new ShipMetrics(registry, List.of(new StandbyConfig("b", ChannelUri.parse(
                "shm:///dev/shm/rdmarepl-conformance"), true)));
        metrics.syncGauges(null);
    }

    private static Map<String, Set<String>> scrape(Consumer<PrometheusMeterRegistry> binders) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        binders.accept(registry);
        Map<String, Set<String>> series = new TreeMap<>();
        for (String line : registry.scrape().split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.indexOf(' ');
            String name = line.substring(0, brace >= 0 && brace < space ? brace : space);
            Set<String> labels = series.computeIfAbsent(name, n -> new TreeSet<>());
            if (brace >= 0 && brace < space) {
                for (String pair : line.substring(brace + 1, line.indexOf('}')).split(",(?=[a-zA-Z_][a-zA-Z0-9_]*=\")")) {
                    labels.add(pair.substring(0, pair.indexOf('=')));
                }
            }
        }
        return series;
    }
}
