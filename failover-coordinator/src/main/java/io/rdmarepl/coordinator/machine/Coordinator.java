package io.rdmarepl.coordinator.machine;

import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.config.MemberConfig;
import io.rdmarepl.coordinator.detect.Candidates;
import io.rdmarepl.coordinator.detect.FailureDetector;
import io.rdmarepl.coordinator.detect.StandbyWatch;
import io.rdmarepl.coordinator.detect.Verdict;
import io.rdmarepl.coordinator.fence.Fencer;
import io.rdmarepl.coordinator.roles.RoleClient;
import io.rdmarepl.coordinator.roles.RoleException;
import io.rdmarepl.coordinator.roles.ShipperLease;
import io.rdmarepl.coordinator.state.ClusterState;
import io.rdmarepl.coordinator.state.HistoryEntry;
import io.rdmarepl.coordinator.state.Member;
import io.rdmarepl.coordinator.state.Role;
import io.rdmarepl.coordinator.store.Durability;
import io.rdmarepl.coordinator.store.StateStore;
import io.rdmarepl.coordinator.store.Versioned;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 * the leader only watches.
 */
public final class Coordinator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Coordinator.class);
    private static final Duration PROMOTE_TIMEOUT = Duration.ofSeconds(30);

    private final CoordinatorConfig config;
    private final StateStore store;
    private final RoleClient roles;
    private final Fencer fencer;
    private final Candidates candidates;
    private final FailureDetector detector;
    private final ShipperLease lease;
    private final FencedMemberGuard fencedGuard;
    private final StandbyTargets targets;
    private final Handovers handovers;
    private final Failover failover;
    private final HeldStandbys heldStandbys;
    private final Map<String, StandbyWatch> watches = new LinkedHashMap<>();
    private final TopologyBoard topology;
    private final ConcurrentLinkedQueue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Versioned<ClusterState> current;
    private volatile Verdict lastVerdict = new Verdict(false, "starting", 0);
    private volatile Map<String, Object> lastFailover;
    private volatile String lastError;
    private long lastReadNs;
    private String lastRefusal;
    /** This coordinator led at its last cycle. */
    private boolean leading;

    public Coordinator(CoordinatorConfig config, StateStore store) {
        this.config = config;
        this.store = store;
        this.topology = new TopologyBoard(store::holdsLeadership);
        this.roles = new RoleClient(config.rolesAdminToken());
        this.fencer = new Fencer(config, roles);
        this.candidates = new Candidates(config.maxLagBytes());
        this.current = store.read();
        String firstPrimary = current.value() != null ? current.value().primary() : config.initialPrimary();
        if (firstPrimary == null || firstPrimary.isEmpty()) {
            throw new IllegalArgumentException("initial.primary: required on the first start (the state store "
                    + store.describe() + " is empty)");
        }
        this.detector = new FailureDetector(config.member(firstPrimary).map(MemberConfig::jdbcUrl).orElseThrow(
                () -> new IllegalArgumentException("the stored primary " + firstPrimary + " is not in members")),
                config.databaseUser(), config.databasePassword(), roles, config.detectInterval(), config.detectProbeTimeout(),
                config.detectProbeFailures(), config.detectHeartbeat(), this::wake);
        for (MemberConfig member : config.members()) {
            member.applierAdmin().ifPresent(uri -> watches.put(member.name(),
                    new StandbyWatch(member.name(), uri, roles, config.detectInterval())));
        }
        this.targets = new StandbyTargets(watches, candidates);
        this.handovers = new Handovers(this, config, fencer, roles, watches);
        this.lease = new ShipperLease(roles);
        this.failover = new Failover(this, config, fencer, roles, targets, lease, detector);
        this.heldStandbys = new HeldStandbys(config, roles);
        this.fencedGuard = new FencedMemberGuard(fencer, this::fencedMembersIfLeading,
                done -> commands.add(() -> write(current.value().transition(current.value().phase(), done, System.currentTimeMillis()))));
        this.thread = new Thread(this::run, "rdmarepl-coordinator");
        thread.setDaemon(true);
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
            ClusterState state = current.value();
            if (member.equals(state.primary()) && Phase.valueOf(state.phase()).hasWritablePrimary()) {
                LOG.warn("fencing the primary {} on an operator's request: the cluster has no writable primary until a promotion", member);
            }
            String done = fencer.fence(target).sentence();
            write(state.withMemberRole(member, Role.FENCED, "operator fenced " + member + ": " + done, System.currentTimeMillis()));
            return Map.of("result", "fenced", "member", member, "message", done);
        });
    }

    /** Everything {@code /status} and {@code rdmarepl status} show. */
    public Map<String, Object> status() {
        return StatusDocument.of(config, current.value(), store.isLeader(), store.describe(), lastVerdict.sentence(), detector.probeView(),
                watches, candidates, lastFailover, lastError, lease.lastAnswer());
    }

    public List<HistoryEntry> history() {
        ClusterState state = current.value();
        return state == null ? List.of() : state.history();
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
            return result.get(Failover.DRAIN_TIMEOUT.plus(PROMOTE_TIMEOUT).plusSeconds(30).toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        } catch (TimeoutException e) {
            throw new Refused("the coordinator did not finish the request in time; see rdmarepl status and history");
        }
    }

    /** Runs the next cycle now rather than at the end of the interval (any thread; before start, a no-op). */
    private void wake() {
        Thread decider = thread;
        if (decider != null) {
            LockSupport.unpark(decider);
        }
    }

    private void run() {
        long intervalNs = config.detectInterval().toNanos();
        while (running) {
            long start = System.nanoTime();
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
            long sleep = intervalNs - (System.nanoTime() - start);
            if (sleep > 0) {
                LockSupport.parkNanos(sleep);
            }
        }
    }

    private void tick() {
        if (!store.isLeader()) {
            leading = false;
            lease.target(null);
            detector.readShipper(null);
            if (System.nanoTime() - lastReadNs > TimeUnit.MILLISECONDS.toNanos(100)) {
                current = store.read();
                lastReadNs = System.nanoTime();
                if (current.value() != null) {
                    topology.publish(current.value(), current.version(), this::jdbcUrlOf);
                }
                topology.confirm(); // only after a read that succeeded: a coordinator without its store ages
            }
            lastVerdict = new Verdict(false, "following: another coordinator leads", 0);
            return;
        }
        if (!leading) {
            // another coordinator may have renewed the primary's lease until now: a failover counts from here
            lease.tookOver();
            leading = true;
        }
        if (current.value() == null) {
            initialise();
        }
        ClusterState state = current.value();
        topology.publish(state, current.version(), this::jdbcUrlOf);
        topology.confirm();
        config.member(state.primary()).ifPresent(m -> detector.probe(m.jdbcUrl()));
        URI primaryShipper = Phase.valueOf(state.phase()).hasWritablePrimary()
                ? config.member(state.primary()).flatMap(MemberConfig::shipperAdmin).orElse(null) : null;
        lease.target(primaryShipper);
        detector.readShipper(primaryShipper);
        Phase phase = Phase.valueOf(state.phase());
        if (phase == Phase.REJOINING) {
            lastVerdict = new Verdict(false, state.primary() + " is primary at epoch " + state.epoch() + "; "
                    + state.withRole(Role.REJOINING).stream().map(Member::name).toList() + " rejoining (copying)", 0);
            handovers.checkRejoin(state);
            return;
        }
        if (phase == Phase.PROMOTED) {
            lastVerdict = new Verdict(false, state.primary() + " is primary at epoch " + state.epoch()
                    + "; no standby follows it until the old primary rejoins", 0);
            return;
        }
        Verdict verdict = detector.judge(state.primary(), targets.views(state));
        lastVerdict = verdict;
        switch (phase) {
            case HEALTHY, SUSPECT -> {
                if (!verdict.primaryFailed()) {
                    if (phase == Phase.SUSPECT) {
                        transition(Phase.HEALTHY, "recovered: " + verdict.sentence());
                    }
                    heldStandbys.release(targets.views(current.value()));
                    return;
                }
                if (phase == Phase.HEALTHY) {
                    transition(Phase.SUSPECT, verdict.sentence());
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
            case SWITCHOVER -> handovers.interrupted(state);
            case FENCING, DRAINING -> transition(Phase.SUSPECT, "a failover was interrupted in " + phase + " (coordinator restart): deciding again");
            case PROMOTING -> resumePromotion(state);
            default -> {
            }
        }
    }

    private List<MemberConfig> fencedMembersIfLeading() {
        ClusterState state = current.value();
        if (state == null || !store.isLeader()) {
            return List.of();
        }
        return state.withRole(Role.FENCED).stream().flatMap(m -> config.member(m.name()).stream()).toList();
    }

    private void initialise() {
        List<Member> members = new ArrayList<>();
        for (MemberConfig m : config.members()) {
            members.add(new Member(m.name(), m.jdbcUrl(), m.name().equals(config.initialPrimary()) ? Role.PRIMARY : Role.STANDBY));
        }
        ClusterState first = new ClusterState(config.clusterName(), 1, config.initialPrimary(), Phase.HEALTHY.name(), members,
                List.of(new HistoryEntry(System.currentTimeMillis(), "uninitialised", Phase.HEALTHY.name(),
                        "cluster initialised with primary " + config.initialPrimary(), 1)));
        write(first);
        LOG.info("cluster {} initialised: primary {}, epoch 1, store {}", config.clusterName(), config.initialPrimary(), store.describe());
    }

    private Map<String, Object> failoverNow(String to, boolean force, String reason) {
        requireLeader();
        return failover.run(to, force, reason, lastVerdict);
    }

    /** The report of the failover under way, published before its PROMOTED (for {@code /status}). */
    void failoverReported(Map<String, Object> report) {
        lastFailover = report;
    }

    private void resumePromotion(ClusterState state) {
        MemberConfig chosen = config.member(state.primary()).orElseThrow();
        promoteApplier(chosen, state.epoch());
        transition(Phase.PROMOTED, chosen.name() + " promoted at epoch " + state.epoch() + " (resumed after an interruption)");
    }

    void promoteApplier(MemberConfig chosen, int epoch) {
        try {
            roles.post(chosen.applierAdmin().orElseThrow(), "/promote", "{\"epoch\":" + epoch + "}", PROMOTE_TIMEOUT);
        } catch (RoleException e) {
            // the epoch is already bumped: retried from PROMOTING on every cycle until the applier answers
            throw new Refused("epoch " + epoch + " is published but " + chosen.name() + "'s applier did not promote yet ("
                    + e.getMessage() + "); the coordinator keeps retrying");
        }
    }

    private void requireLeader() {
        if (!store.isLeader()) {
            throw new Refused("this coordinator (" + config.coordinatorName() + ") is not the leader; ask the leader ("
                    + store.describe() + ")");
        }
    }

    ClusterState state() {
        return current.value();
    }

    void retargetProbe(MemberConfig primary) {
        detector.probe(primary.jdbcUrl());
    }

    void transition(Phase next, String reason) {
        ClusterState state = current.value();
        write(state.transition(next.name(), reason, System.currentTimeMillis()), next.mustBeDurable() ? Durability.SYNCED : Durability.LAZY);
        LOG.info("{} -> {}: {}", state.phase(), next, reason);
    }

    void write(ClusterState next) {
        write(next, Durability.SYNCED);
    }

    /** Compare-and-set against what this coordinator last read; on a conflict re-reads and refuses. */
    void write(ClusterState next, Durability durability) {
        long version = store.compareAndSet(current.version(), next, durability);
        if (version == StateStore.NOTHING_STORED) {
            current = store.read();
            throw new Refused("the cluster state changed underneath (another coordinator acted); re-read epoch "
                    + (current.value() == null ? "?" : current.value().epoch()) + ", deciding again");
        }
        current = new Versioned<>(next, version);
        topology.publish(next, version, this::jdbcUrlOf);
        topology.confirm();
    }

    private String jdbcUrlOf(String member) {
        return config.member(member).map(MemberConfig::jdbcUrl)
                .orElseGet(() -> current.value().member(member).map(Member::jdbcUrl).orElse(null));
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
        watches.values().forEach(StandbyWatch::close);
    }
}
