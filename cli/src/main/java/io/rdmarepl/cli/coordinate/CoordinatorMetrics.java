package io.rdmarepl.cli.coordinate;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.rdmarepl.coordinator.machine.Coordinator;

/**
 * The coordinator's Prometheus gauges: epoch, leadership and the history's length. Public for the monitoring docs'
 * test, which registers them with a null coordinator (every gauge reads NaN) to list their names.
 */
public final class CoordinatorMetrics {
    private CoordinatorMetrics() {
    }

    public static void register(MeterRegistry registry, Coordinator coordinator) {
        Gauge.builder("rdmarepl.coordinator.epoch", coordinator, c -> ((Number) c.status().get("epoch")).doubleValue())
                .description("Current epoch of the cluster (bumped by every promotion)").register(registry);
        Gauge.builder("rdmarepl.coordinator.leader", coordinator, c -> Boolean.TRUE.equals(c.status().get("leader")) ? 1 : 0)
                .description("1 while this coordinator leads").register(registry);
        Gauge.builder("rdmarepl.coordinator.history.entries", coordinator, c -> c.history().size())
                .description("State changes kept in the history").register(registry);
    }
}
