package io.rdmarepl.trials;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmarepl.client.FailoverDataSource;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.ZooKeeperEnsemble;
import io.rdmarepl.testsupport.cluster.CoordinatorHttp;
import io.rdmarepl.testsupport.cluster.HostCluster;
import io.rdmarepl.testsupport.history.Ack;
import io.rdmarepl.testsupport.history.ClientWriter;
import io.rdmarepl.testsupport.history.WriteHistory;
import io.rdmarepl.testsupport.net.NetHost;
import io.rdmarepl.testsupport.net.Partitions;
import io.rdmarepl.testsupport.net.RequestWatch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 21's scenario 3 against a {@link HostCluster} on ZooKeeper ({@link HostCluster#startOnZooKeeper}): the leading
 * coordinator is cut off from the ZooKeeper quorum while it still sees the primary and the standby, either together with
 * the ZooKeeper server it is connected to (a minority of one server) or alone (cut from every server). The other
 * coordinator, on the majority side, must take the lead; the cut-off one must stop acting within the documented bound.
 * <p>
 * What the old leader does is seen from outside: a {@link RequestWatch} on the members' hosts records the first and the
 * last POST each coordinator sent to a role's admin endpoint (every action: lease renewals, drain, promote, fence), its
 * {@code /topology} is sampled for answers a client takes as fresh ({@code leader}, or {@code age_ms} at most the
 * client's 2 s), and both coordinators' {@code /status} for who claims to lead. The writes are judged as in every
 * partition trial ({@link PartitionTrials#healed}).
 */
public final class MinorityCoordinatorTrials {
    /** A coordinator that heard the ZooKeeper quorum last this long ago acts no more: half the 5 s session timeout. */
    public static final Duration LEADERSHIP_BOUND = Duration.ofMillis(2500);
    /** An answer this old is not taken as a confirmation by a client ({@code TopologyFreshness.STALE_ANSWER}). */
    static final long CLIENT_STALE_MS = 2000;
    /** How long the new leader is watched leading before the heal, so that an old leader still acting shows. */
    static final Duration NEW_LEADER_WATCHED = Duration.ofSeconds(2);
    /**
     * With the primary cut too: it loses the majority's coordinator with the leader's cut and its standby this much
     * later, a partition that grows (the coordinator's probe fails for that long before the standby's silence begins).
     */
    static final Duration PRIMARY_CUT_GROWS = Duration.ofSeconds(1);
    private static final Duration SAMPLE_EVERY = Duration.ofMillis(50);
    private static final Pattern ZOOKEEPER_PEER = Pattern.compile("(\\d+\\.\\d+\\.\\d+\\.\\d+)]?:2181\\b");
    private static final Logger LOG = LoggerFactory.getLogger(MinorityCoordinatorTrials.class);

    /** Where the leading coordinator ends up. */
    public enum Side {
        /** with the ZooKeeper server it is connected to, both cut from the other two servers and the other coordinator */
        MINORITY,
        /** cut from every ZooKeeper server (and nothing else) */
        ALONE
    }

    private final HostCluster cluster;
    private final PartitionTrials trials;
    private final Partitions partitions;
    private final Map<String, RequestWatch> posts = new LinkedHashMap<>();

    public MinorityCoordinatorTrials(HostCluster cluster) {
        this.cluster = cluster;
        this.trials = new PartitionTrials(cluster);
        this.partitions = cluster.network().partitions();
        for (String member : List.of("a", "b")) {
            posts.put(member, RequestWatch.on(cluster.host(member), "POST", HostCluster.SHIPPER_ADMIN, HostCluster.APPLIER_ADMIN));
        }
    }

    /**
     * What one trial showed. Times in ms from the cut (the leader's side without the quorum, every rule of it in place);
     * -1 where it did not happen. {@code oldFirstActedMs} and
     * {@code oldLastActedMs}: the old leader's first POST to a role seen (before the cut: the watch saw it renew) and its
     * last; {@code oldLastFreshMs}: its last {@code /topology} answer a client takes as fresh; {@code oldLastClaimMs}:
     * its last {@code /status} saying it leads; {@code newLeadsMs}: the other's first saying so; {@code newFirstActedMs}:
     * the other's first POST; {@code bothClaimedMs}: how long both said they lead at once; {@code oldFailedOver}: the
     * old leader's {@code /status} reports a failover it ran; {@code settledAfterHealMs}: from the heal until every
     * coordinator answered a fresh topology again, one of them leading.
     */
    public record Outcome(TrialResult result, String oldLeader, String newLeader, String side, long oldFirstActedMs, long oldLastActedMs,
                   long oldLastFreshMs, long oldLastClaimMs, long newLeadsMs, long newFirstActedMs, long bothClaimedMs,
                   long acknowledgedDuringCutBy, boolean oldFailedOver, long settledAfterHealMs) {
        public String summary() {
            return result.summary() + "; scenario 3: " + oldLeader + " cut off " + side + "; its last action " + oldLastActedMs
                    + " ms after the cut, last fresh topology " + oldLastFreshMs + " ms, last leader claim " + oldLastClaimMs
                    + " ms" + (oldFailedOver ? ", and it ran a failover" : "") + "; " + newLeader + " leads " + newLeadsMs
                    + " ms after the cut, acts first " + newFirstActedMs + " ms; both claimed the lead for " + bothClaimedMs + " ms; "
                    + acknowledgedDuringCutBy + " writes acknowledged by the old primary during the cut; every coordinator fresh again "
                    + settledAfterHealMs + " ms after the heal";
        }
    }

    /**
     * Cuts the leading coordinator off the quorum ({@code side}); with {@code primaryCutFromMajority} the primary is also
     * cut from the majority's coordinator, and {@link #PRIMARY_CUT_GROWS} later from the standby (it still sees the old
     * leader and its clients), so that only the majority's coordinator sees it fail. Holds the cut until the other coordinator has led for
     * {@link #NEW_LEADER_WATCHED} (and, with the primary cut, has failed over and the standby took 20 writes), heals,
     * and brings the cluster back to HEALTHY ({@code rdmarepl rejoin} after a failover).
     */
    public Outcome leaderCut(int trial, Side side, boolean primaryCutFromMajority) throws Exception {
        String primary = trials.primary();
        String standby = PartitionTrials.other(primary);
        List<CoordinatorHttp> coordinators = cluster.coordinators();
        CoordinatorHttp oldLeader = cluster.coordinator();
        int oldIndex = coordinators.indexOf(oldLeader);
        NetHost oldHost = cluster.coordinatorHosts().get(oldIndex);
        List<NetHost> majorityCoordinators = new ArrayList<>(cluster.coordinatorHosts());
        majorityCoordinators.remove(oldHost);
        ZooKeeperEnsemble zookeeper = cluster.zookeeper();
        ZooKeeperEnsemble.Server own = connectedServer(oldHost, zookeeper);
        String sideText = side == Side.MINORITY ? "with its ZooKeeper server zk" + own.id() + " (" + zookeeper.mode(own) + ")"
                : "from every ZooKeeper server (it used zk" + own.id() + ")";

        String oldFailoverBefore = oldLeader.status().path("last_failover").toString();
        WriteHistory history = new WriteHistory();
        long cutStartNs;
        long cutNs;
        long healNs;
        long settledAfterHealMs;
        Sampling sampling;
        Map<String, RequestWatch.Seen> seen = new LinkedHashMap<>();
        String notes;
        posts.values().forEach(RequestWatch::reset);
        try (FailoverDataSource dataSource = Applications.dataSource(cluster);
             ClientWriter application = trials.following(dataSource, history);
             ClientWriter insisting = primaryCutFromMajority ? trials.insistingOn(cluster.server(primary), history) : null) {
            application.awaitMore(50, Duration.ofSeconds(30));
            if (insisting != null) {
                insisting.awaitMore(20, Duration.ofSeconds(30));
            }
            cutStartNs = System.nanoTime();
            for (ZooKeeperEnsemble.Server server : zookeeper.servers()) {
                if (side == Side.ALONE || server != own) {
                    partitions.cut(oldHost, server.host());
                    if (side == Side.MINORITY) {
                        partitions.cut(own.host(), server.host());
                    }
                }
            }
            if (side == Side.MINORITY) {
                for (NetHost other : majorityCoordinators) {
                    partitions.cut(oldHost, other);
                    partitions.cut(own.host(), other);
                }
            }
            // each rule is a command run in a namespace, tens of ms on a busy host: times count from when the leader's side
            // has lost the quorum, all of its rules in place
            cutNs = System.nanoTime();
            if (primaryCutFromMajority) {
                majorityCoordinators.forEach(other -> partitions.cut(cluster.host(primary), other));
                // the partition grows: the duration is the subject, not a wait for something
                LockSupport.parkNanos(PRIMARY_CUT_GROWS.toNanos());
                partitions.cut(cluster.host(primary), cluster.host(standby));
            }
            LOG.info("scenario 3 trial {}: leading coordinator {} cut off {} (its rules took {} ms){}; cut: {}", trial, oldHost.name(),
                    sideText, msAfter(cutStartNs, cutNs), primaryCutFromMajority ? "; " + primary + " cut from the majority's "
                            + "coordinator, and from " + standby + " " + PRIMARY_CUT_GROWS.toMillis() + " ms later" : "", partitions);
            sampling = new Sampling(cutNs, oldLeader, coordinators);
            while (!sampling.done(primaryCutFromMajority, history, standby)) {
                if (System.nanoTime() - cutNs > PartitionTrials.FAILOVER_TIMEOUT.toNanos()) {
                    throw new AssertionError("scenario 3 trial " + trial + ": no other coordinator took the lead"
                            + (primaryCutFromMajority ? " and failed over" : "") + " within " + PartitionTrials.FAILOVER_TIMEOUT
                            + ": " + sampling + "\n" + statuses() + cluster.tails());
                }
                sampling.sample();
                LockSupport.parkNanos(SAMPLE_EVERY.toNanos()); // the sampling period of what the coordinators answer: not a wait
            }
            posts.forEach((member, watch) -> watch.seen().forEach((source, s) -> seen.merge(source, s, (x, y) ->
                    new RequestWatch.Seen(source, Math.min(x.firstNs(), y.firstNs()), Math.max(x.lastNs(), y.lastNs())))));
            String shipper = cluster.shipperStatusOrError(primary);
            healNs = System.nanoTime();
            partitions.healAll();
            awaitEveryCoordinatorFresh();
            settledAfterHealMs = msAfter(healNs, System.nanoTime());
            LOG.info("scenario 3 trial {}: healed, every coordinator fresh {} ms later; {}{}; sampled: {}", trial, settledAfterHealMs,
                    application, insisting == null ? "" : "; " + insisting, sampling);
            notes = "leading coordinator cut off " + sideText + " (its rules took " + msAfter(cutStartNs, cutNs)
                    + " ms; times from then); sampled: " + sampling + "; POSTs to the roles: "
                    + describe(seen, cutNs) + "; shipper of " + primary + " before the heal: " + shipper;
        }
        long acknowledgedDuringCut = history.acksBy(primary).stream()
                .filter(a -> a.acknowledgedNs() - cutStartNs > 0 && a.acknowledgedNs() - healNs < 0).count();
        long selfFenceMs = -1;
        long fencedBeforePromotingMs = 0;
        if (primaryCutFromMajority) {
            List<Ack> oldAcks = history.acksBy(primary);
            Ack lastOld = oldAcks.get(oldAcks.size() - 1);
            selfFenceMs = TimeUnit.NANOSECONDS.toMillis(lastOld.acknowledgedNs() - cutNs);
            fencedBeforePromotingMs = trials.lastTransitionTo("PROMOTING") - lastOld.acknowledgedAtMs();
        }
        TrialResult result = trials.healed(3, trial, primary, history, cutStartNs, selfFenceMs, fencedBeforePromotingMs, notes);
        JsonNode oldFailover = oldLeader.status().path("last_failover");
        boolean oldFailedOver = oldFailover.isObject() && !oldFailover.toString().equals(oldFailoverBefore);
        String newLeader = sampling.newLeader();
        RequestWatch.Seen oldPosts = seen.get(oldHost.address());
        RequestWatch.Seen newPosts = newLeader == null ? null
                : seen.get(cluster.coordinatorHosts().get(coordinators.indexOf(sampling.newLeaderHttp())).address());
        return new Outcome(result, oldHost.name(), newLeader == null ? "nobody" : newLeader, sideText,
                oldPosts == null ? -1 : msAfter(cutNs, oldPosts.firstNs()), oldPosts == null ? -1 : msAfter(cutNs, oldPosts.lastNs()), sampling.oldLastFreshMs, sampling.oldLastClaimMs,
                sampling.newLeadsMs, newPosts == null ? -1 : msAfter(cutNs, newPosts.firstNs()), sampling.bothClaimedMs(),
                acknowledgedDuringCut, oldFailedOver, settledAfterHealMs);
    }

    /**
     * After the heal: the old leader has reconnected (a new session, its old one expired) and reads the store again,
     * so the next trial starts from a settled cluster.
     */
    private void awaitEveryCoordinatorFresh() {
        Await.until("every coordinator answers a fresh topology again, one of them leading", PartitionTrials.HEAL_TIMEOUT, () -> {
            long leading = 0;
            for (CoordinatorHttp c : cluster.coordinators()) {
                JsonNode topology = c.topology();
                if (topology.path("age_ms").asLong(Long.MAX_VALUE) > CLIENT_STALE_MS) {
                    return false;
                }
                leading += topology.path("leader").asBoolean() ? 1 : 0;
            }
            return leading == 1;
        });
    }

    /** Every coordinator's and applier's {@code /status}, one line each: for failure messages. */
    private String statuses() {
        StringBuilder out = new StringBuilder();
        List<CoordinatorHttp> coordinators = cluster.coordinators();
        for (int i = 0; i < coordinators.size(); i++) {
            String status;
            try {
                status = coordinators.get(i).status().toString();
            } catch (Exception e) {
                status = "(no answer: " + e + ")";
            }
            out.append("--- ").append(cluster.coordinatorHosts().get(i).name()).append(" /status: ").append(status).append('\n');
        }
        for (String member : List.of("a", "b")) {
            out.append("--- applier on ").append(member).append(" /status: ").append(cluster.applierStatusOrError(member)).append('\n');
        }
        return out.toString();
    }

    /** The ZooKeeper server {@code host}'s coordinator is connected to, from its established connections to port 2181. */
    private static ZooKeeperEnsemble.Server connectedServer(NetHost host, ZooKeeperEnsemble zookeeper) {
        String sockets = host.run("ss", "-Htn", "state", "established", "( dport = :2181 )");
        Matcher m = ZOOKEEPER_PEER.matcher(sockets);
        while (m.find()) {
            var server = zookeeper.serverAt(m.group(1));
            if (server.isPresent()) {
                return server.get();
            }
        }
        throw new AssertionError(host.name() + "'s coordinator has no connection to a ZooKeeper server: " + sockets);
    }

    private String describe(Map<String, RequestWatch.Seen> seen, long cutNs) {
        StringBuilder out = new StringBuilder();
        seen.forEach((address, s) -> out.append(out.length() == 0 ? "" : ", ").append(hostName(address)).append(" first ")
                .append(msAfter(cutNs, s.firstNs())).append(" ms, last ").append(msAfter(cutNs, s.lastNs())).append(" ms after the cut"));
        return out.length() == 0 ? "none after the cut" : out.toString();
    }

    private String hostName(String address) {
        return cluster.network().hosts().stream().filter(h -> h.address().equals(address)).map(NetHost::name).findFirst().orElse(address);
    }

    private static long msAfter(long cutNs, long atNs) {
        return TimeUnit.NANOSECONDS.toMillis(atNs - cutNs);
    }

    /** What the coordinators answered during the cut, sampled every {@link #SAMPLE_EVERY}. */
    private final class Sampling {
        private final long cutNs;
        private final CoordinatorHttp oldLeader;
        private final List<CoordinatorHttp> coordinators;
        private final Set<String> newLeaderPhases = new TreeSet<>();
        private long oldLastFreshMs = -1;
        private long oldLastClaimMs = -1;
        private long newLeadsMs = -1;
        private long bothFirstMs = -1;
        private long bothLastMs = -1;
        private CoordinatorHttp newLeader;
        private String lastOldTopology = "";

        Sampling(long cutNs, CoordinatorHttp oldLeader, List<CoordinatorHttp> coordinators) {
            this.cutNs = cutNs;
            this.oldLeader = oldLeader;
            this.coordinators = coordinators;
        }

        void sample() {
            long nowMs = msAfter(cutNs, System.nanoTime());
            boolean oldClaims = false;
            try {
                JsonNode topology = oldLeader.topology();
                lastOldTopology = "leader " + topology.path("leader").asBoolean() + ", age " + topology.path("age_ms").asLong() + " ms";
                if (topology.path("leader").asBoolean() || topology.path("age_ms").asLong(Long.MAX_VALUE) <= CLIENT_STALE_MS) {
                    oldLastFreshMs = nowMs;
                }
                oldClaims = oldLeader.status().path("leader").asBoolean();
            } catch (Exception e) {
                lastOldTopology = "unanswered: " + e;
            }
            if (oldClaims) {
                oldLastClaimMs = nowMs;
            }
            for (CoordinatorHttp other : coordinators) {
                if (other == oldLeader) {
                    continue;
                }
                try {
                    JsonNode status = other.status();
                    if (status.path("leader").asBoolean()) {
                        if (newLeader == null) {
                            newLeader = other;
                            newLeadsMs = nowMs;
                        }
                        newLeaderPhases.add(status.path("phase").asText());
                        if (oldClaims) {
                            bothFirstMs = bothFirstMs < 0 ? nowMs : bothFirstMs;
                            bothLastMs = nowMs;
                        }
                    }
                } catch (Exception e) {
                    // unanswered: not leading for the client
                }
            }
        }

        boolean done(boolean failover, WriteHistory history, String standby) throws Exception {
            if (newLeader == null || msAfter(cutNs, System.nanoTime()) - newLeadsMs < NEW_LEADER_WATCHED.toMillis()) {
                return false;
            }
            return !failover || ("PROMOTED".equals(newLeader.status().path("phase").asText()) && history.count(standby) >= 20);
        }

        String newLeader() {
            return newLeader == null ? null : cluster.coordinatorHosts().get(coordinators.indexOf(newLeader)).name();
        }

        CoordinatorHttp newLeaderHttp() {
            return newLeader;
        }

        long bothClaimedMs() {
            return bothFirstMs < 0 ? 0 : bothLastMs - bothFirstMs + SAMPLE_EVERY.toMillis();
        }

        @Override
        public String toString() {
            return "old leader last claimed the lead " + oldLastClaimMs + " ms after the cut, last fresh topology " + oldLastFreshMs
                    + " ms (then: " + lastOldTopology + "); " + (newLeader == null ? "no new leader" : newLeader() + " leads from "
                    + newLeadsMs + " ms, phases " + newLeaderPhases) + "; both claimed the lead for " + bothClaimedMs() + " ms";
        }
    }
}
