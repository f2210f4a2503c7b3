package io.rdmarepl.harness.bench;

import io.rdmarepl.testsupport.ZooKeeperEnsemble;
import io.rdmarepl.testsupport.cluster.HostCluster;
import io.rdmarepl.trials.MinorityCoordinatorTrials;
import io.rdmarepl.trials.PartitionTrials;
import io.rdmarepl.trials.StandbyFaultTrials;
import io.rdmarepl.trials.TrialResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Issue 21's scenarios as {@code rdmarepl bench partition} runs them: each trial on a fresh {@link HostCluster}, the
 * trial itself one of the end-to-end tests' ({@link PartitionTrials}, {@link MinorityCoordinatorTrials}), with the same
 * fault lengths as those tests but scenario 5's, which the issue gives (30 s).
 */
enum PartitionScenario {
    PRIMARY_CUT_OFF(1, "the primary cut off from coordinator and standby, its clients still reach it") {
        @Override
        Outcome run(HostCluster cluster, int trial) throws Exception {
            return new Outcome(new PartitionTrials(cluster).primaryCutOff(trial), Map.of());
        }

        @Override
        boolean failsOver() {
            return true;
        }
    },
    COORDINATOR_CUT_FROM_PRIMARY(2, "the coordinator cut off from the primary only") {
        @Override
        Outcome run(HostCluster cluster, int trial) throws Exception {
            return new Outcome(new PartitionTrials(cluster).coordinatorCutFromPrimary(trial, Duration.ofSeconds(5)), Map.of());
        }
    },
    MINORITY_COORDINATOR(3, "the leading coordinator and its ZooKeeper server cut off from the quorum") {
        @Override
        Outcome run(HostCluster cluster, int trial) throws Exception {
            MinorityCoordinatorTrials.Outcome o = new MinorityCoordinatorTrials(cluster).leaderCut(trial,
                    MinorityCoordinatorTrials.Side.MINORITY, false);
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("old_leader", o.oldLeader());
            details.put("new_leader", o.newLeader());
            details.put("old_leader_last_action_ms", o.oldLastActedMs());
            details.put("old_leader_last_fresh_topology_ms", o.oldLastFreshMs());
            details.put("new_leader_leads_ms", o.newLeadsMs());
            details.put("new_leader_first_action_ms", o.newFirstActedMs());
            details.put("both_claimed_lead_ms", o.bothClaimedMs());
            details.put("old_leader_failed_over", o.oldFailedOver());
            return new Outcome(o.result(), details);
        }

        @Override
        boolean zooKeeper() {
            return true;
        }
    },
    STANDBY_CUT_FROM_PRIMARY(4, "the standby cut off from the primary for 10 s during the load; in even trials the primary's"
            + " shipper killed a third into the cut") {
        @Override
        Outcome run(HostCluster cluster, int trial) throws Exception {
            boolean shipperExits = trial % 2 == 0;
            StandbyFaultTrials.StandbyCut cut = new StandbyFaultTrials(cluster).standbyCutFromPrimary(trial, Duration.ofSeconds(10), shipperExits);
            return new Outcome(cut.result(), Map.of("acknowledged_while_cut", cut.acknowledgedWhileCut(),
                    "acknowledged_after_heal", cut.acknowledgedAfterHeal()));
        }
    },
    FLAKY_LINK(5, "20% loss (and 50 ms jitter where the kernel has netem) between shipper and standby for 30 s") {
        @Override
        Outcome run(HostCluster cluster, int trial) throws Exception {
            return new Outcome(new PartitionTrials(cluster).flakyLink(trial, 20, Duration.ofMillis(50), Duration.ofSeconds(30)), Map.of());
        }
    },
    STANDBY_DISK_FILLS(6, "the standby's disk full for 8 s, then space again") {
        @Override
        Outcome run(HostCluster cluster, int trial) throws Exception {
            StandbyFaultTrials.DiskFull full = new StandbyFaultTrials(cluster).standbyDiskFills(trial, Duration.ofSeconds(8));
            return new Outcome(full.result(), Map.of("applier_saw", full.applierSaw(),
                    "acknowledged_while_full", full.acknowledgedWhileFull(), "acknowledged_after_freed", full.acknowledgedAfterFreed()));
        }
    },
    OLD_PRIMARY_RETURNS(7, "the old primary comes back after its partition heals: 5 s without the runbook, then rejoined") {
        @Override
        Outcome run(HostCluster cluster, int trial) throws Exception {
            PartitionTrials.OldPrimaryReturns back = new PartitionTrials(cluster).oldPrimaryReturns(trial, Duration.ofSeconds(5));
            TrialResult result = back.result();
            if (back.acknowledgedByOldPrimaryAfterHeal() > 0 || !back.primariesAfterHeal().equals(java.util.Set.of(result.primaryAfter()))) {
                throw new AssertionError("the old primary " + result.primaryBefore() + " came back and acknowledged "
                        + back.acknowledgedByOldPrimaryAfterHeal() + " write(s), the coordinator named " + back.primariesAfterHeal()
                        + " primary before the runbook ran: " + result.summary());
            }
            return new Outcome(result, Map.of("acknowledged_by_old_primary_after_heal", back.acknowledgedByOldPrimaryAfterHeal(),
                    "acknowledged_by_new_primary_after_heal", back.acknowledgedByNewPrimaryAfterHeal(),
                    "phases_after_heal", back.phasesAfterHeal(), "primaries_after_heal", back.primariesAfterHeal()));
        }

        @Override
        boolean failsOver() {
            return true;
        }
    };

    /** What one trial showed: the end-to-end tests' result and the scenario's own figures. */
    record Outcome(TrialResult result, Map<String, Object> details) {
    }

    private final int number;
    private final String title;

    PartitionScenario(int number, String title) {
        this.number = number;
        this.title = title;
    }

    int number() {
        return number;
    }

    String title() {
        return title;
    }

    /**
     * Whether its trials must fail over (the old primary refusing writes before PROMOTING); the others must change
     * nothing and lose nothing.
     */
    boolean failsOver() {
        return false;
    }

    /** Whether its cluster keeps the coordinators' state in ZooKeeper (three servers, two coordinators). */
    boolean zooKeeper() {
        return false;
    }

    /** One trial on {@code cluster}, fresh and HEALTHY with a the primary. */
    abstract Outcome run(HostCluster cluster, int trial) throws Exception;

    /**
     * Starts this scenario's cluster in {@code directory}: the example configurations, in sync mode strict
     * {@code replication.mode=sync} with the servers' commits at {@code synchronous_commit = on}.
     */
    HostCluster start(Path directory, boolean sync, int trial) throws Exception {
        String name = "bench-partition-" + number + "-" + (sync ? "sync" : "async") + "-" + trial;
        HostCluster.Builder builder = HostCluster.builder(name).directory(directory)
                .shipperSettings(sync ? Map.of("replication.mode", "sync") : Map.of())
                // the servers run with synchronous_commit off (fast); commits wait for a standby only from 'on' up
                .serverSql(sync ? "ALTER DATABASE postgres SET synchronous_commit = on" : "");
        if (zooKeeper()) {
            builder.zooKeeper(ZooKeeperEnsemble.Timing.SAMPLE, 2);
        }
        return builder.start();
    }

    static Optional<PartitionScenario> numbered(int number) {
        return Arrays.stream(values()).filter(s -> s.number == number).findFirst();
    }
}
