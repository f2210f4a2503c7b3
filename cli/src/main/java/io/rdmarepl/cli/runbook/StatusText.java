package io.rdmarepl.cli.runbook;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmarepl.shipper.capture.CopyProgressText;
import java.io.PrintWriter;
import java.util.Map;

/**
 * The coordinator's {@code /status} for a human: who is primary, how far behind each standby is, and why; while the
 * primary's shipper runs an initial copy, a line for it (as the shipper's own log says it).
 */
final class StatusText {
    private StatusText() {
    }

    static void print(JsonNode status, PrintWriter out) {
        header(out, "cluster", Table.cell(status.get("cluster")));
        header(out, "epoch", Table.cell(status.get("epoch")));
        header(out, "phase", Table.cell(status.get("phase")));
        header(out, "primary", Table.cell(status.get("primary")));
        header(out, "leader", leader(status));
        header(out, "store", Table.cell(status.get("store")));
        if (status.hasNonNull("replication")) {
            header(out, "mode", mode(status.get("replication")));
        }
        if (status.hasNonNull("initial_copy")) {
            header(out, "copy", CopyProgressText.line(CoordinatorAdmin.JSON.convertValue(status.get("initial_copy"), Map.class)));
        }
        if (status.hasNonNull("lease")) {
            header(out, "fencing", fencing(status.get("lease")));
        }
        out.println();
        Table members = new Table("NAME", "ROLE", "APPLIER", "LAG BYTES", "LAG MS", "HEARTBEAT MS", "CANDIDATE");
        for (JsonNode m : status.path("members")) {
            members.row(Table.cell(m.get("name")), Table.cell(m.get("role")), Table.cell(m.get("applier")),
                    Table.cell(m.get("lag_bytes")), Table.cell(m.get("lag_ms")), Table.cell(m.get("heartbeat_age_ms")),
                    candidate(m.get("candidate")));
        }
        members.print(out);
        for (JsonNode m : status.path("members")) {
            if (m.hasNonNull("applier_error")) {
                out.println(Table.cell(m.get("name")) + " applier stopped: " + m.get("applier_error").asText());
            }
        }
        out.println();
        out.println("last decision: " + Table.cell(status.get("last_decision")));
        if (status.hasNonNull("last_failover")) {
            JsonNode failover = status.get("last_failover");
            out.println("last failover: " + Table.cell(failover.hasNonNull("message") ? failover.get("message") : failover));
        }
        if (status.hasNonNull("last_error")) {
            out.println("last error: " + status.get("last_error").asText());
        }
    }

    /** "async", or "sync (sync, strict)", "sync (DEGRADED to async, degrade after 500 ms)"; and what is acknowledged. */
    private static String mode(JsonNode replication) {
        String mode = replication.path("mode").asText("unknown");
        if ("sync".equals(mode)) {
            String state = replication.path("sync_state").asText("?");
            mode += " (" + ("degraded".equals(state) ? "DEGRADED to async" : state) + ", " + replication.path("sync_policy").asText("?") + ")";
        }
        return mode + "; the standbys hold every commit up to " + replication.path("acknowledged_lsn").asText("?");
    }

    /**
     * How an old primary SQL cannot reach will be made to refuse writes: by fence.command, by waiting out its lease, or
     * not at all (a failover is then refused).
     */
    private static String fencing(JsonNode lease) {
        JsonNode shipper = lease.get("shipper_lease_ms");
        String terms = shipper == null || shipper.isNull()
                ? "lease " + lease.path("fence_lease_ms").asLong() + " ms assumed (the primary's shipper not heard yet)"
                : shipper.asLong() == 0 ? "NO LEASE on the primary's shipper (fence.lease.ms=0)" : "lease " + shipper.asLong() + " ms";
        if (lease.path("fence_command").asBoolean()) {
            return "fence.command for a primary SQL cannot fence; " + terms;
        }
        return terms + (shipper != null && !shipper.isNull() && shipper.asLong() == 0
                ? ", no fence.command: a failover SQL cannot fence is refused"
                : ", no fence.command: a primary SQL cannot fence is waited out until its lease ran out");
    }

    private static void header(PrintWriter out, String label, String value) {
        out.printf("%-8s %s%n", label, value);
    }

    private static String leader(JsonNode status) {
        String name = Table.cell(status.get("coordinator"));
        return status.path("leader").asBoolean(false)
                ? "yes (coordinator " + name + ")"
                : "no (coordinator " + name + " only watches: send failover/promote/fence to the leader)";
    }

    /** The coordinator says "yes" or why not; "no: why" reads better in a column of yeses. */
    private static String candidate(JsonNode candidate) {
        String value = Table.cell(candidate);
        return value.equals("yes") || value.equals("-") ? value : "no: " + value;
    }
}
