package io.rdmarepl.harness.demo;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmarepl.harness.rig.FailoverOutcome;
import io.rdmarepl.harness.rig.FailoverTrial;
import io.rdmarepl.harness.rig.InProcessCoordinator;
import io.rdmarepl.harness.rig.ReplicationRoles;
import io.rdmarepl.testsupport.PostgresServer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The demo's second act: the coordinator joins (in this process, state in a file), a client writes through the
 * failover-aware DataSource, the primary's postmaster is killed with SIGKILL, the coordinator promotes the
 * replica, the client writes on; then what the client had acknowledged is checked against the new primary and
 * every server is asked to take a write.
 */
final class FailoverAct {
    private static final Duration WARMUP = Duration.ofSeconds(1);
    private static final Duration WRITE_ON = Duration.ofSeconds(1);

    private FailoverAct() {
    }

    /** @return the {@code "failover"} object of the report: the outcome, or {@code pass false} and the error */
    static Map<String, Object> run(PostgresServer primary, PostgresServer replica, ReplicationRoles roles, String rolesToken,
                                   PrometheusMeterRegistry registry, int rate, Consumer<String> say) {
        try (InProcessCoordinator coordinator = InProcessCoordinator.start("demo", primary, replica, roles, rolesToken, registry, null)) {
            say.accept("act two: coordinator at " + coordinator.url() + "; a client writes through the failover-aware DataSource");
            FailoverOutcome outcome = new FailoverTrial(primary, replica, coordinator, say).run(rate, WARMUP, WRITE_ON);
            return outcome.toMap();
        } catch (Exception | AssertionError e) { // an AssertionError: something awaited did not come in time
            Map<String, Object> failed = new LinkedHashMap<>();
            failed.put("pass", false);
            failed.put("mode", "async");
            failed.put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
            return failed;
        }
    }

    /** The act's lines of the human report. */
    static String text(Map<String, Object> failover) {
        StringBuilder out = new StringBuilder("act two: SIGKILL of the primary's postmaster under a client's writes (async mode)\n");
        if (failover.containsKey("error")) {
            return out.append("  failed: ").append(failover.get("error")).append('\n').toString();
        }
        if (!Integer.valueOf(0).equals(failover.get("transitions_before_kill"))) {
            out.append("  THE COORDINATOR FAILED OVER THE HEALTHY PRIMARY BEFORE THE KILL (see its decisions below): the figures mean nothing\n");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> acknowledged = (Map<String, Object>) failover.get("acknowledged");
        out.append(String.format("  coordinator: failure detected %s ms after the kill, %s PROMOTED at epoch %s %s ms after it%n",
                failover.get("kill_to_detection_ms"), failover.get("new_primary"), failover.get("epoch"), failover.get("kill_to_promoted_ms")));
        out.append(String.format("  detection %s ms, promotion %s ms %s (the coordinator's last_failover report)%n",
                failover.get("detection_ms"), failover.get("promotion_ms"), failover.get("promotion_steps_ms")));
        out.append(String.format("  RTO %s ms: from the kill to the first write the new primary acknowledged, as the client saw it%n",
                failover.get("rto_ms")));
        out.append(String.format("  client: %s transactions acknowledged by the old primary, %s by the new one%n",
                acknowledged.get("old_primary"), acknowledged.get("new_primary")));
        out.append(String.format("  acknowledged transactions lost: %s (acknowledged by the old primary, absent on the new one; async mode loses "
                + "what was in flight at the kill; sync mode (replication.mode=sync) makes it 0: rdmarepl bench failover --mode sync)%n", failover.get("lost_acknowledged")));
        out.append(String.format("  acknowledged by the new primary and missing on it: %s%n", failover.get("missing_on_new_primary")));
        Object writable = failover.get("writable_primaries_after");
        out.append(String.format("  writable primaries now: %s%s%n", writable, Integer.valueOf(1).equals(writable) ? " (exactly one)" : " (must be 1)"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> history = (List<Map<String, Object>>) failover.get("history");
        out.append("  the coordinator's decisions:\n");
        for (Map<String, Object> entry : history) {
            out.append(String.format("    %+5d ms %-9s %s%n", ((Number) entry.get("after_kill_ms")).longValue(), entry.get("to"), entry.get("reason")));
        }
        return out.toString();
    }
}
