package io.rdmarepl.harness.rig;

import io.rdmarepl.coordinator.state.HistoryEntry;
import io.rdmarepl.testsupport.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What a failover trial reads of the coordinator: its {@code /status}, its history and where clients follow its
 * topology; in this process ({@link InProcessCoordinator}) or a separate one over its admin endpoint
 * ({@link RemoteCoordinator}).
 */
public interface CoordinatorView {

    /** The base URL of its admin endpoint: what clients give {@code FailoverDataSourceConfig.coordinatorUrl}. */
    String url();

    /** The {@code /status} document. */
    Map<String, Object> status();

    /** Every state change so far, oldest first. */
    List<HistoryEntry> history();

    /** The member a failover of the initial primary promotes. */
    String standby();

    /**
     * Waits until the coordinator is in {@code phase}.
     *
     * @throws AssertionError with the last status when it is not there within {@code timeout}
     */
    default Map<String, Object> awaitPhase(String phase, Duration timeout) {
        return Await.until("the coordinator " + phase, timeout, this::status, status -> phase.equals(status.get("phase")));
    }

    /**
     * Waits until {@code /status} carries the {@code last_failover} report. The coordinator publishes PROMOTED a
     * moment before it sets the report, so a status read right at PROMOTED may not have it yet.
     *
     * @throws AssertionError with the last status when it has none within {@code timeout}
     */
    default Map<String, Object> awaitLastFailover(Duration timeout) {
        return Await.until("the coordinator's last_failover report", timeout, this::status, status -> status.get("last_failover") != null);
    }
}
