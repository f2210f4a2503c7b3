package io.rdmarepl.cli.coordinate;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.rdmarepl.coordinator.machine.Coordinator;
import io.rdmarepl.coordinator.state.Phase;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The coordinator's Prometheus gauges: epoch, phase, leadership and the history's length. Public for the monitoring docs'
 * test, which registers them with a null coordinator (every gauge reads NaN) to list their names.
 */
public final class CoordinatorMetrics {
    /** "0 HEALTHY, 1 SUSPECT, ...": the codes are fixed, so the description is the legend a dashboard needs. */
    private static final String PHASE_CODES = Arrays.stream(Phase.values()).map(p -> p.code() + " " + p.name())
            .collect(Collectors.joining(", "));

    private CoordinatorMetrics() {
    }

    public static void register(MeterRegistry registry, Coordinator coordinator) {
        Gauge.builder("rdmarepl.coordinator.epoch", coordinator, c -> ((Number) c.status().get("epoch")).doubleValue())
                .description("Current epoch of the cluster (bumped by every promotion)").register(registry);
        Gauge.builder("rdmarepl.coordinator.phase", coordinator, CoordinatorMetrics::phaseCode)
                .description("Failover phase of the cluster by its fixed code (" + PHASE_CODES + "; -1 before the cluster is initialised)")
                .register(registry);
        Gauge.builder("rdmarepl.coordinator.leader", coordinator, c -> Boolean.TRUE.equals(c.status().get("leader")) ? 1 : 0)
                .description("1 while this coordinator leads").register(registry);
        Gauge.builder("rdmarepl.coordinator.history.entries", coordinator, c -> c.history().size())
                .description("State changes kept in the history").register(registry);
    }

    private static double phaseCode(Coordinator coordinator) {
        Phase phase = coordinator.phase();
        return phase == null ? -1 : phase.code();
    }
}
