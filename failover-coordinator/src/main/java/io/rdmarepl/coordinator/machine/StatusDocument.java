package io.rdmarepl.coordinator.machine;

import io.rdmarepl.control.Guarantee;
import io.rdmarepl.control.LeaseAnswer;
import io.rdmarepl.control.LeaseTerms;
import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.config.MemberConfig;
import io.rdmarepl.coordinator.detect.Candidates;
import io.rdmarepl.coordinator.detect.ProbeView;
import io.rdmarepl.coordinator.detect.StandbyView;
import io.rdmarepl.coordinator.detect.StandbyMonitor;
import io.rdmarepl.coordinator.state.ClusterState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The coordinator's {@code /status} document, built from what the decision loop last saw. */
final class StatusDocument {
    private StatusDocument() {
    }

    static Map<String, Object> of(CoordinatorConfig config, ClusterState state, boolean leader, String store, String lastDecision,
                                  ProbeView probe, Map<String, StandbyMonitor> watches, Candidates candidates,
                                  Map<String, Object> lastFailover, String lastError, LeaseAnswer shipperAnswer) {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("role", "coordinator");
        status.put("coordinator", config.coordinatorName());
        status.put("leader", leader);
        status.put("store", store);
        status.put("cluster", config.clusterName());
        status.put("epoch", state == null ? 0 : state.epoch());
        status.put("phase", state == null ? "uninitialised" : state.phase().name());
        status.put("primary", state == null ? config.initialPrimary() : state.primary());
        status.put("last_decision", lastDecision);
        Guarantee guarantee = shipperAnswer == null ? null : shipperAnswer.guarantee();
        if (guarantee != null && guarantee.replicationMode() != null) {
            Map<String, Object> replication = new LinkedHashMap<>();
            replication.put("mode", guarantee.replicationMode());
            replication.put("sync_state", guarantee.syncState());
            replication.put("sync_policy", guarantee.syncPolicy());
            replication.put("acknowledged_lsn", guarantee.acknowledgedLsn());
            status.put("replication", replication);
        }
        if (shipperAnswer != null && shipperAnswer.copyProgress() != null) {
            status.put("initial_copy", shipperAnswer.copyProgress()); // the primary's shipper is copying to the standbys
        }
        Map<String, Object> lease = new LinkedHashMap<>();
        LeaseTerms terms = shipperAnswer == null ? null : shipperAnswer.terms();
        Long shipperLeaseMs = terms == null ? null : terms.leaseMs();
        lease.put("shipper_lease_ms", shipperLeaseMs);
        lease.put("fence_lease_ms", config.fenceLease().toMillis());
        lease.put("fence_command", !config.fenceCommand().isEmpty());
        lease.put("rule", shipperLeaseMs != null && shipperLeaseMs == 0
                ? "the primary's shipper runs no lease: a failover whose fence nothing confirms is refused"
                : "a failover whose fence nothing confirms promotes only once the old primary's lease certainly ran out");
        status.put("lease", lease);
        Map<String, Object> probeStatus = new LinkedHashMap<>();
        probeStatus.put("target", probe.jdbcUrl());
        probeStatus.put("failures", probe.failures());
        probeStatus.put("error", probe.error());
        probeStatus.put("since_success_ms", probe.sinceSuccessMs() == Long.MAX_VALUE ? null : probe.sinceSuccessMs());
        probeStatus.put("wal_lsn", probe.walLsn());
        status.put("probe", probeStatus);
        List<Map<String, Object>> members = new ArrayList<>();
        for (MemberConfig m : config.members()) {
            members.add(member(m, state, watches.get(m.name()), candidates));
        }
        status.put("members", members);
        status.put("last_failover", lastFailover);
        status.put("last_error", lastError);
        return status;
    }

    private static Map<String, Object> member(MemberConfig m, ClusterState state, StandbyMonitor watch, Candidates candidates) {
        Map<String, Object> member = new LinkedHashMap<>();
        member.put("name", m.name());
        member.put("role", state == null ? "unknown" : state.member(m.name()).map(x -> x.role().name()).orElse("unknown"));
        member.put("jdbc_url", m.jdbcUrl());
        if (watch != null) {
            StandbyView v = watch.view();
            member.put("applier", v.reachable() ? v.state() : "unreachable: " + v.error());
            member.put("applier_error", watch.applierError());
            member.put("applied_lsn", v.appliedLsn());
            member.put("durable_lsn", v.durableLsn());
            member.put("lag_bytes", v.reachable() ? v.backlogBytes() : null);
            member.put("lag_ms", v.reachable() ? v.lagMs() : null);
            member.put("heartbeat_age_ms", v.reachable() ? v.heartbeatAgeMs() : null);
            member.put("candidate", candidates.disqualification(v).orElse("yes"));
        }
        return member;
    }
}
