package io.rdmarepl.coordinator.machine;

import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.config.MemberConfig;
import io.rdmarepl.coordinator.detect.Candidates;
import io.rdmarepl.coordinator.detect.FailureDetector;
import io.rdmarepl.coordinator.detect.StandbyMonitor;
import io.rdmarepl.coordinator.detect.Verdict;
import io.rdmarepl.coordinator.fence.Fencer;
import io.rdmarepl.coordinator.handover.ReverseRoles;
import io.rdmarepl.coordinator.roles.ShipperLease;
import io.rdmarepl.coordinator.state.ClusterState;
import io.rdmarepl.coordinator.state.HistoryEntry;
import io.rdmarepl.coordinator.state.Member;
import io.rdmarepl.coordinator.state.Phase;
import io.rdmarepl.coordinator.state.Role;
import io.rdmarepl.coordinator.store.StateStore;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator: one thread that looks at the primary and the standbys every {@code detect.interval.ms},
 * moves the cluster through its {@link Phase}s, and carries out operators' requests, in that one thread, so
 * decisions never race. Every change is a compare-and-set in the {@link StateStore}; a coordinator that is not
 * the leader only watches. It acts only through its {@link Collaborators}, made outside it.
 */
public final class Coordinator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Coordinator.class);
    private final CoordinatorConfig config;
    private final StateStore store;
    private final CoordinatorClock clock;
    private final Fencer fencer;
    private final Candidates candidates;
    private final FailureDetector detector;
    private final ShipperLease lease;
    private final FencedMemberGuard fencedGuard;
    private final StandbyTargets targets;
    private final Handovers handovers;
    private final Failover failover;
    private final ApplierPromoter promoter;
    private final HeldStandbys heldStandbys;
    private final FenceLift fenceLift;
    private final Map<String, StandbyMonitor> watches;
    private final TopologyBoard topology;
    private final CurrentState state;
    private final ConcurrentLinkedQueue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Verdict lastVerdict = new Verdict(false, "starting", 0);
    private volatile Map<String, Object> lastFailover;
    private volatile String lastError;
    private long lastReadNs;
    private String lastRefusal;
    /** This coordinator led at its last cycle. */
    private boolean leading;

    /** A running coordinator's: HTTP to the roles, SQL to the members ({@link ProductionCollaborators}). */
    public Coordinator(CoordinatorConfig config, StateStore store) {
        this(config, store, ProductionCollaborators.of(config, store));
    }

    /** @param parts what it acts through; closed with it */
    public Coordinator(CoordinatorConfig config, StateStore store, Collaborators parts) {
        this.config = config;
        this.store = store;
        this.topology = new TopologyBoard(store::holdsLeadership);
        this.clock = parts.clock();
        this.fencer = parts.fencer();
        this.detector = parts.detector();
        this.lease = parts.lease();
        this.watches = parts.standbys();
        this.state = new CurrentState(store, topology, config, clock);
        FirstPrimary.of(config, state.value(), store.describe());
        this.candidates = new Candidates(config.maxLagBytes());
        this.targets = new StandbyTargets(watches, candidates);
        this.promoter = new ApplierPromoter(parts.roles());
        this.handovers = new Handovers(state, config, fencer, parts.marker(), new ReverseRoles(parts.roles()), watches, promoter,
                detector, clock);
        this.fenceLift = new FenceLift(config, fencer, parts.roles(), clock, () -> state.write(state.value()));
        this.failover = new Failover(state, config, fencer, parts.roles(), targets, lease, detector, promoter, clock,
                report -> lastFailover = report, fenceLift::owe);
        this.heldStandbys = new HeldStandbys(config, parts.roles(), clock);
        this.fencedGuard = new FencedMemberGuard(fencer, this::fencedMembersIfLeading,
                done -> commands.add(() -> state.write(state.value().transition(state.value().phase(), done, clock.nowMs()))));
        this.thread = new Thread(this::run, "rdmarepl-coordinator");
        thread.setDaemon(true);
        parts.wakeup().bind(thread);
    }

    public Coordinator start() {
        thread.start();
        return this;
    }

    public TopologyBoard topology() {
        return topology;
    }

    /** Fail over to {@code to} (or the best candidate); without {@code force}, only when the primary has failed. */
    public Map<String, Object> failover(String to, boolean force) throws Exception {
        return call(() -> failoverNow(to, force, force ? "operator forced a failover" : "operator asked for a failover"));
    }

    /** Promote {@code member}: a failover to it, whatever the primary's health (it is fenced first). */
    public Map<String, Object> promote(String member) throws Exception {
        return call(() -> failoverNow(member, true, "operator promoted " + member));
    }

    /**
     * Planned switchover to {@code to} (or the best standby): nothing acknowledged is lost; the old primary then
     * rejoins as a standby of the new one.
     */
    public Map<String, Object> switchover(String to) throws Exception {
        return call(() -> {
            requireLeader();
            return handovers.switchover(to, targets);
        });
    }

    /** Makes the fenced former primary {@code member} a standby of the current primary (a fresh copy). */
    public Map<String, Object> rejoin(String member) throws Exception {
        return call(() -> {
            requireLeader();
            return handovers.rejoin(member);
        });
    }

    /** Make {@code member} refuse writes and record it as fenced. */
    public Map<String, Object> fence(String member) throws Exception {
        return call(() -> {
            requireLeader();
            MemberConfig target = config.member(member).orElseThrow(() -> new Refused("no member named " + member));
            ClusterState now = state.value();
            if (member.equals(now.primary()) && now.phase().hasWritablePrimary()) {
                LOG.warn("fencing the primary {} on an operator's request: the cluster has no writable primary until a promotion", member);
            }
            String done = fencer.fence(target).sentence();
            state.write(now.withMemberRole(member, Role.FENCED, "operator fenced " + member + ": " + done, clock.nowMs()));
            return Map.of("result", "fenced", "member", member, "message", done);
        });
    }

    /** Everything {@code /status} and {@code rdmarepl status} show. */
    public Map<String, Object> status() {
        return StatusDocument.of(config, state.value(), store.isLeader(), store.describe(), lastVerdict.sentence(), detector.probeView(),
                watches, candidates, lastFailover, lastError, lease.lastAnswer());
    }

    public List<HistoryEntry> history() {
        ClusterState now = state.value();
        return now == null ? List.of() : now.history();
    }

    /** The phase the cluster is in as this coordinator last saw it; null before the cluster is initialised. */
    public Phase phase() {
        ClusterState now = state.value();
        return now == null ? null : now.phase();
    }

    public boolean healthy() {
        return thread.isAlive() && lastError == null;
    }

    private Map<String, Object> call(Callable<Map<String, Object>> command) throws Exception {
        CompletableFuture<Map<String, Object>> result = new CompletableFuture<>();
        commands.add(() -> {
            try {
                result.complete(command.call());
            } catch (Exception | Error e) {
                result.completeExceptionally(e);
            }
        });
        try {
            return result.get(Failover.DRAIN_TIMEOUT.plus(ApplierPromoter.PROMOTE_TIMEOUT).plusSeconds(30).toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        } catch (TimeoutException e) {
            throw new Refused("the coordinator did not finish the request in time; see rdmarepl status and history");
        }
    }

    private void run() {
        long intervalNs = config.detectInterval().toNanos();
        while (running) {
            long start = clock.nanoTime();
            try {
                Runnable command;
                while ((command = commands.poll()) != null) {
                    command.run();
                }
                tick();
                lastError = null;
            } catch (RuntimeException e) {
                if (!String.valueOf(e.getMessage()).equals(lastError)) {
                    LOG.error("coordinator cycle failed: {}", e.getMessage());
                }
                lastError = String.valueOf(e.getMessage());
            }
            long sleep = intervalNs - (clock.nanoTime() - start);
            if (sleep > 0) {
                // a real park whatever the clock: the detector's wake-up (unpark) must cut it short
                LockSupport.parkNanos(sleep);
            }
        }
    }

    private void tick() {
        if (!store.isLeader()) {
            leading = false;
            lease.target(null);
            detector.readShipper(null);
            if (clock.nanoTime() - lastReadNs > TimeUnit.MILLISECONDS.toNanos(100)) {
                state.reread();
                lastReadNs = clock.nanoTime();
            }
            lastVerdict = new Verdict(false, "following: another coordinator leads", 0);
            return;
        }
        if (!leading) {
            // another coordinator may have renewed the primary's lease until now: a failover counts from here
            lease.tookOver();
            leading = true;
        }
        if (state.value() == null) {
            initialise();
        }
        state.publish();
        ClusterState now = state.value();
        Phase phase = now.phase();
        config.member(now.primary()).ifPresent(m -> detector.probe(m.jdbcUrl()));
        URI primaryShipper = phase.hasWritablePrimary()
                ? config.member(now.primary()).flatMap(MemberConfig::shipperAdmin).orElse(null) : null;
        lease.target(primaryShipper);
        detector.readShipper(primaryShipper);
        if (phase == Phase.REJOINING) {
            lastVerdict = new Verdict(false, now.primary() + " is primary at epoch " + now.epoch() + "; "
                    + now.withRole(Role.REJOINING).stream().map(Member::name).toList() + " rejoining (copying)", 0);
            handovers.checkRejoin(now);
            return;
        }
        if (phase == Phase.PROMOTED) {
            lastVerdict = new Verdict(false, now.primary() + " is primary at epoch " + now.epoch()
                    + "; no standby follows it until the old primary rejoins", 0);
            return;
        }
        Verdict verdict = detector.judge(now.primary(), targets.views(now));
        lastVerdict = verdict;
        switch (phase) {
            case HEALTHY, SUSPECT -> {
                if (!verdict.primaryFailed()) {
                    if (phase == Phase.SUSPECT) {
                        FenceLift.Outcome lift = fenceLift.beforeHealthy(now);
                        if (lift.blocked()) {
                            lastVerdict = new Verdict(false, verdict.sentence() + "; not HEALTHY yet: " + lift.blocker(), 0);
                            return;
                        }
                        // what the long poll said of a fence before this direct answer is stale now
                        detector.shipperFenceLifted();
                        state.transition(Phase.HEALTHY, "recovered: " + verdict.sentence()
                                + (lift.lifted() == null ? "" : "; " + lift.lifted()));
                    } else if (detector.shipperFenced() && !fenceLift.checkedRecently()
                            && now.member(now.primary()).map(m -> m.role() == Role.PRIMARY).orElse(false)) {
                        // a fence whose failover did not happen (it landed after the refusal), or a lease that ran out
                        // while no one could renew it: the SUSPECT path lifts it
                        state.transition(Phase.SUSPECT, now.primary() + "'s shipper says it is fenced: it ships nothing and "
                                + now.primary() + " may refuse writes; nothing was promoted, so the fence is lifted");
                        return;
                    }
                    heldStandbys.release(targets.views(state.value()));
                    return;
                }
                if (phase == Phase.HEALTHY) {
                    state.transition(Phase.SUSPECT, verdict.sentence());
                }
                // the verdict already needs both signals: a second cycle to confirm it would only add a cycle
                if (config.autoFailover()) {
                    try {
                        failoverNow(null, false, verdict.sentence());
                    } catch (Refused refused) {
                        if (!refused.getMessage().equals(lastRefusal)) {
                            LOG.warn("not failing over: {}", refused.getMessage());
                            lastRefusal = refused.getMessage();
                        }
                        lastVerdict = new Verdict(true, verdict.sentence() + "; not failing over: " + refused.getMessage(), 0);
                    }
                }
            }
            case SWITCHOVER -> handovers.interrupted(now);
            case FENCING, DRAINING -> {
                fenceLift.owe(now.primary());
                state.transition(Phase.SUSPECT, "a failover was interrupted in " + phase + " (coordinator restart): deciding again");
            }
            case PROMOTING -> resumePromotion(now);
            default -> {
            }
        }
    }

    private List<MemberConfig> fencedMembersIfLeading() {
        ClusterState now = state.value();
        if (now == null || !store.isLeader()) {
            return List.of();
        }
        return now.withRole(Role.FENCED).stream().flatMap(m -> config.member(m.name()).stream()).toList();
    }

    private void initialise() {
        List<Member> members = new ArrayList<>();
        for (MemberConfig m : config.members()) {
            members.add(new Member(m.name(), m.jdbcUrl(), m.name().equals(config.initialPrimary()) ? Role.PRIMARY : Role.STANDBY));
        }
        ClusterState first = new ClusterState(config.clusterName(), 1, config.initialPrimary(), Phase.HEALTHY, members,
                List.of(new HistoryEntry(clock.nowMs(), "uninitialised", Phase.HEALTHY.name(),
                        "cluster initialised with primary " + config.initialPrimary(), 1)));
        state.write(first);
        LOG.info("cluster {} initialised: primary {}, epoch 1, store {}", config.clusterName(), config.initialPrimary(), store.describe());
    }

    private Map<String, Object> failoverNow(String to, boolean force, String reason) {
        requireLeader();
        Map<String, Object> report = failover.run(to, force, reason, lastVerdict);
        fenceLift.owe(null); // promoted: the old primary stays fenced, until it rejoins
        return report;
    }

    private void resumePromotion(ClusterState promoting) {
        MemberConfig chosen = config.member(promoting.primary()).orElseThrow();
        promoter.promote(chosen, promoting.epoch());
        state.transition(Phase.PROMOTED, chosen.name() + " promoted at epoch " + promoting.epoch() + " (resumed after an interruption)");
    }

    private void requireLeader() {
        if (!store.isLeader()) {
            throw new Refused("this coordinator (" + config.coordinatorName() + ") is not the leader; ask the leader ("
                    + store.describe() + ")");
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        detector.close();
        lease.close();
        fencedGuard.close();
        watches.values().forEach(StandbyMonitor::close);
    }
}
