package io.rdmarepl.harness.bench;

import io.rdmarepl.harness.rig.FailoverOutcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The trials of {@code rdmarepl bench failover}, summed up as a table or one JSON object. */
final class FailoverBenchReport {

    /**
     * One trial.
     *
     * @param outcome        rdmarepl's failover, null when the trial failed
     * @param referenceUs    PostgreSQL's physical standby: {@code pg_ctl promote} to its first write, µs; -1 when not run
     * @param referenceLost  acknowledged by the old primary, absent on the promoted physical standby; -1 when not run
     * @param error          why the trial failed, or null
     */
    record Trial(FailoverOutcome outcome, long referenceUs, int referenceLost, String error) {
    }

    private final String layout;
    private final Map<String, Object> cpus;
    private final String rehearsal;
    private final String mode;
    private final int rate;
    private final int writers;
    private final String applySynchronousCommit;
    private final String referenceUnavailable;
    private final List<Trial> trials;

    /**
     * @param layout                 where the roles ran: shared (threads of one process, every CPU) or hosts (processes on
     *                               hosts of their own, the primary's on a CPU of its own)
     * @param cpus                   hosts layout: which CPU the primary's host had and which the others shared; else empty
     * @param rehearsal              what ran before each kill to warm the failover paths ({@code --rehearse}), or null
     * @param mode                   the shipper's replication.mode: async or sync
     * @param applySynchronousCommit the applier's apply.synchronous.commit, null for its default (off)
     * @param referenceUnavailable   why PostgreSQL's reference was not run, or null when it was
     */
    FailoverBenchReport(String layout, Map<String, Object> cpus, String rehearsal, String mode, int rate, int writers,
                        String applySynchronousCommit, String referenceUnavailable, List<Trial> trials) {
        this.layout = layout;
        this.cpus = Map.copyOf(cpus);
        this.rehearsal = rehearsal;
        this.mode = mode;
        this.applySynchronousCommit = applySynchronousCommit;
        this.writers = writers;
        this.rate = rate;
        this.referenceUnavailable = referenceUnavailable;
        this.trials = List.copyOf(trials);
    }

    boolean pass() {
        return !trials.isEmpty() && trials.stream().allMatch(t -> t.outcome() != null && t.outcome().pass());
    }

    private List<FailoverOutcome> outcomes() {
        return trials.stream().map(Trial::outcome).filter(o -> o != null).toList();
    }

    /** Trials in which the coordinator failed over the healthy primary before the kill: their timings mean nothing. */
    private long earlyFailovers() {
        return outcomes().stream().filter(o -> o.transitionsBeforeKill() > 0).count();
    }

    /** A figure over the trials whose failover the kill caused. */
    private Spread spread(java.util.function.ToLongFunction<FailoverOutcome> figure) {
        return Spread.of(outcomes().stream().filter(o -> o.transitionsBeforeKill() == 0).map(o -> figure.applyAsLong(o))
                .filter(v -> v >= 0).toList());
    }

    /** A figure of the client's transaction latency (µs, per trial) over the trials, in ms. */
    private Spread latencyMs(String figure) {
        return Spread.of(outcomes().stream().filter(o -> o.transitionsBeforeKill() == 0 && o.commitLatencyUs().get(figure) != null)
                .map(o -> ((Number) o.commitLatencyUs().get(figure)).longValue() / 1000.0).toList());
    }

    private boolean sync() {
        return "sync".equals(mode);
    }

    private int acknowledgedByOld() {
        return outcomes().stream().mapToInt(FailoverOutcome::acknowledgedByOld).sum();
    }

    private Spread referenceMs() {
        return Spread.of(trials.stream().filter(t -> t.referenceUs() >= 0).map(t -> t.referenceUs() / 1000.0).toList());
    }

    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pass", pass());
        m.put("layout", layout);
        if (!cpus.isEmpty()) {
            m.put("cpus", new java.util.TreeMap<>(cpus));
        }
        if (rehearsal != null) {
            m.put("rehearsal", rehearsal);
        }
        m.put("mode", mode);
        m.put("trials", trials.size());
        m.put("rate", rate);
        m.put("writers", writers);
        m.put("apply_synchronous_commit", applySynchronousCommit == null ? "off" : applySynchronousCommit);
        m.put("detection_ms", spread(FailoverOutcome::detectionMs).toMap());
        m.put("kill_to_detection_ms", spread(FailoverOutcome::killToDetectionMs).toMap());
        m.put("promotion_ms", spread(FailoverOutcome::promotionMs).toMap());
        m.put("kill_to_promoted_ms", spread(FailoverOutcome::killToPromotedMs).toMap());
        m.put("kill_to_client_switch_ms", spread(FailoverOutcome::killToClientSwitchMs).toMap());
        m.put("rto_ms", spread(FailoverOutcome::rtoMs).toMap());
        Map<String, Object> latency = new LinkedHashMap<>();
        latency.put("median", latencyMs("median").toMap());
        latency.put("p99", latencyMs("p99").toMap());
        m.put("commit_latency_ms", latency);
        m.put("acknowledged_by_old_primary", acknowledgedByOld());
        m.put("lost_acknowledged", outcomes().stream().mapToInt(FailoverOutcome::lostAcknowledged).sum());
        m.put("lost_acknowledged_per_trial", trials.stream().map(t -> t.outcome() == null ? null : t.outcome().lostAcknowledged()).toList());
        m.put("failovers_before_kill", earlyFailovers());
        m.put("writable_primaries_after", trials.stream().map(t -> t.outcome() == null ? null : t.outcome().writablePrimariesAfter()).toList());
        Map<String, Object> reference = new LinkedHashMap<>();
        reference.put("name", PhysicalStandby.NAME);
        if (referenceUnavailable != null) {
            reference.put("unavailable", referenceUnavailable);
        } else {
            reference.put("base_backup", PhysicalStandby.BASE_BACKUP);
            reference.put("promote_to_first_write_ms", referenceMs().toMap());
            reference.put("lost_acknowledged", trials.stream().filter(t -> t.referenceLost() >= 0).mapToInt(Trial::referenceLost).sum());
        }
        m.put("reference", reference);
        List<Object> perTrial = new ArrayList<>();
        for (Trial t : trials) {
            Map<String, Object> trial = t.outcome() == null ? new LinkedHashMap<>() : t.outcome().toMap();
            if (t.referenceUs() >= 0) {
                trial.put("reference_promote_to_first_write_ms", Math.round(t.referenceUs() / 100.0) / 10.0);
                trial.put("reference_lost_acknowledged", t.referenceLost());
            }
            if (t.error() != null) {
                trial.put("pass", false);
                trial.put("error", t.error());
            }
            perTrial.add(trial);
        }
        m.put("per_trial", perTrial);
        return m;
    }

    String table() {
        StringBuilder out = new StringBuilder();
        out.append(String.format("rdmarepl bench failover: %d trial(s), layout %s, %s, applier synchronous_commit %s, %s at %s, SIGKILL "
                        + "of the primary's postmaster%n",
                trials.size(), "hosts".equals(layout) ? "hosts (each role a process on its own host; the primary's host on CPU "
                        + cpus.get("primary_host_cpu") + ", the others on CPU " + cpus.get("other_cpu") + ")"
                        : "shared (the roles in one process, everything on every CPU)", (rehearsal == null ? "" : "REHEARSED (" + rehearsal
                        + "), ") + (sync() ? "SYNC mode (strict, remote_flush: a commit returns once the replica holds it)" : "async mode"),
                applySynchronousCommit == null ? "off" : applySynchronousCommit,
                writers == 1 ? "one client" : "one client with " + writers + " writers",
                rate == 0 ? "full speed" : rate + " tx/s"));
        out.append(String.format("%-52s %8s %8s %8s %8s%n", "figure (ms)", "min", "median", "p99", "max"));
        row(out, "detection (coordinator's own figure)", spread(FailoverOutcome::detectionMs));
        row(out, "SIGKILL -> failure detected (SUSPECT)", spread(FailoverOutcome::killToDetectionMs));
        row(out, "promotion (decision -> PROMOTED)", spread(FailoverOutcome::promotionMs));
        row(out, "SIGKILL -> PROMOTED", spread(FailoverOutcome::killToPromotedMs));
        row(out, "SIGKILL -> client follows the new topology", spread(FailoverOutcome::killToClientSwitchMs));
        row(out, "RTO (SIGKILL -> first write on the new primary)", spread(FailoverOutcome::rtoMs));
        if (referenceUnavailable == null) {
            row(out, "reference: pg_ctl promote -> first write", referenceMs());
        }
        row(out, "client transaction latency before the kill: median", latencyMs("median"));
        row(out, "client transaction latency before the kill: p99", latencyMs("p99"));
        Map<String, Object> m = toMap();
        if (sync()) {
            out.append(String.format("ACKNOWLEDGED TRANSACTIONS LOST: %s of %s the old primary acknowledged (sync mode: must be 0; each "
                            + "trial's client-side log of acknowledged ids checked against the promoted replica), per trial %s%n",
                    m.get("lost_acknowledged"), m.get("acknowledged_by_old_primary"), m.get("lost_acknowledged_per_trial")));
        } else {
            out.append(String.format("acknowledged transactions lost: %s of %s the old primary acknowledged, per trial %s (async: what "
                            + "was in flight; --mode sync makes it 0)%n", m.get("lost_acknowledged"), m.get("acknowledged_by_old_primary"),
                    m.get("lost_acknowledged_per_trial")));
        }
        out.append(String.format("writable primaries after each trial: %s (must be 1)%n", m.get("writable_primaries_after")));
        if (earlyFailovers() > 0) {
            out.append(String.format("the coordinator failed over the healthy primary BEFORE the kill in %d trial(s) (left out of the "
                    + "figures above; see the progress lines)%n", earlyFailovers()));
        }
        if (referenceUnavailable != null) {
            out.append("reference (").append(PhysicalStandby.NAME).append(") not run: ").append(referenceUnavailable).append('\n');
        } else {
            @SuppressWarnings("unchecked")
            Map<String, Object> reference = (Map<String, Object>) m.get("reference");
            out.append(String.format("reference: %s%s; base backup by %s; acknowledged transactions lost: %s%n", PhysicalStandby.NAME,
                    sync() ? " (an asynchronous standby: synchronous_standby_names lists only the shipper)" : "",
                    PhysicalStandby.BASE_BACKUP, reference.get("lost_acknowledged")));
        }
        for (int i = 0; i < trials.size(); i++) {
            if (trials.get(i).error() != null) {
                out.append(String.format("trial %d failed: %s%n", i + 1, trials.get(i).error()));
            }
        }
        out.append(pass() ? "PASS\n" : "FAIL\n");
        return out.toString();
    }

    private static void row(StringBuilder out, String label, Spread spread) {
        out.append(String.format("%-52s %s%n", label, spread.row()));
    }

    /** The progress line of one trial. */
    static String progress(int index, int of, Trial trial) {
        if (trial.error() != null) {
            return String.format("trial %d/%d FAILED: %s", index, of, trial.error());
        }
        FailoverOutcome o = trial.outcome();
        String early = o.transitionsBeforeKill() == 0 ? ""
                : " FAILED OVER THE HEALTHY PRIMARY BEFORE THE KILL (" + o.history().get(0).get("reason") + ");";
        String sync = o.sync() ? " sync mode (at the kill: shipper " + o.syncAtKill().get("sync_state") + ", primary's pg_stat_replication "
                + o.syncAtKill().get("primary_sync_state") + ");" : "";
        return String.format("trial %d/%d:%s%s detection %d ms (SIGKILL -> SUSPECT %d ms), promotion %d ms, RTO %d ms, lost %d of %d "
                        + "(%d in the last 100 ms, %d in flight at the kill), transaction median %s µs, writable primaries %d%s", index, of, early,
                sync, o.detectionMs(), o.killToDetectionMs(), o.promotionMs(), o.rtoMs(),
                o.lostAcknowledged(), o.acknowledgedByOld(), o.acknowledgedLast100MsBeforeKill(), o.inFlightAtKill(),
                o.commitLatencyUs().get("median"), o.writablePrimariesAfter(),
                trial.referenceUs() < 0 ? "" : String.format("; reference pg_ctl promote -> write %.1f ms, lost %d", trial.referenceUs() / 1000.0,
                        trial.referenceLost()));
    }
}
