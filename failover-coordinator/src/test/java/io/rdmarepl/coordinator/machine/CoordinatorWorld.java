package io.rdmarepl.coordinator.machine;

import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.roles.ShipperLease;
import io.rdmarepl.coordinator.state.ClusterState;
import io.rdmarepl.coordinator.state.HistoryEntry;
import io.rdmarepl.coordinator.state.Member;
import io.rdmarepl.coordinator.state.Phase;
import io.rdmarepl.coordinator.state.Role;
import io.rdmarepl.testsupport.Await;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A coordinator among fakes: members a (the primary), b and c, each with a shipper and an applier; b has applied
 * the most. Every role answers as a healthy one would until a test says otherwise.
 */
final class CoordinatorWorld implements AutoCloseable {
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    static final List<String> MEMBERS = List.of("a", "b", "c");
    static final String LEASE_ANSWER = "{\"replication_mode\":\"async\",\"sync_state\":null,\"acknowledged_lsn\":\"0/3000\","
            + "\"lease_ms\":2000,\"lease_check_ms\":100,\"self_fence_timeout_ms\":2000,\"copy_progress\":null}";

    final FakeStateStore store;
    final FakeRoles roles = new FakeRoles();
    final FakeFencer fencer = new FakeFencer();
    final FakeDetector detector = new FakeDetector();
    final SkippingClock clock = new SkippingClock();
    final Map<String, FakeStandby> standbys = new LinkedHashMap<>();
    final CoordinatorConfig config;
    private final ShipperLease lease;
    private Coordinator coordinator;

    private CoordinatorWorld(FakeStateStore store, boolean autoFailover) {
        this.store = store;
        this.lease = new ShipperLease(roles, store::holdsLeadership);
        this.config = CoordinatorConfig.load(properties(autoFailover));
        detector.fencedShippers(uri -> fencer.shipperFenced(uri.getHost().substring(0, uri.getHost().indexOf('.'))));
        standbys.put("a", new FakeStandby("a", "0/3000"));
        standbys.put("b", new FakeStandby("b", "0/4000"));
        standbys.put("c", new FakeStandby("c", "0/3800"));
        for (String member : MEMBERS) {
            roles.on("POST", shipper(member), "/lease", FakeRoles.answering(LEASE_ANSWER));
            FakeStandby standby = standbys.get(member);
            // a drain answers with what the standby has applied by then
            roles.on("POST", applier(member), "/drain", body -> FakeRoles.json("{\"applied_lsn\":\"" + standby.view().appliedLsn() + "\"}"));
            roles.on("POST", applier(member), "/promote", FakeRoles.answering("{\"state\":\"promoted\",\"applied_lsn\":\"0/4000\",\"sequences\":{}}"));
            roles.on("POST", applier(member), "/follow", FakeRoles.answering("{\"result\":\"following\"}"));
            roles.on("POST", applier(member), "/activate", FakeRoles.answering("{\"state\":\"streaming\",\"ring\":\"shm:///dev/shm/r\",\"epoch\":2}"));
            roles.on("POST", shipper(member), "/fence", FakeRoles.answering("{\"state\":\"fenced\"}"));
            // the shipper's own word of its fence: set by the fencer (as SqlFencer posts /fence), cleared by /resume
            roles.on("GET", shipper(member), "/primary", body -> FakeRoles.json("{\"shipping\":true,\"alive\":true,"
                    + "\"postmaster_exited\":false,\"fenced\":" + fencer.shipperFenced(member) + "}"));
            roles.on("POST", shipper(member), "/resume", body -> {
                boolean resumed = fencer.shipperFenced(member);
                fencer.shipperResumed(member);
                return FakeRoles.json("{\"state\":\"shipping\",\"resumed\":" + resumed + "}");
            });
            roles.on("POST", shipper(member), "/retire", FakeRoles.answering("{\"state\":\"retired\",\"slot_dropped\":true}"));
            roles.on("POST", shipper(member), "/activate", FakeRoles.answering("{\"state\":\"shipping\"}"));
        }
    }

    /** An empty store, automatic failover on. */
    static CoordinatorWorld empty() {
        return new CoordinatorWorld(new FakeStateStore(), true);
    }

    /** An empty store, failover only on an operator's request. */
    static CoordinatorWorld manual() {
        return new CoordinatorWorld(new FakeStateStore(), false);
    }

    /** A store that holds {@code state}: a coordinator restarted in the middle of something. */
    static CoordinatorWorld restartedWith(ClusterState state) {
        return new CoordinatorWorld(new FakeStateStore(state), true);
    }

    /** The state of a cluster initialised with primary a, then moved to {@code phase} (a crash left it there). */
    static ClusterState initialIn(Phase phase) {
        List<Member> members = MEMBERS.stream()
                .map(m -> new Member(m, jdbcUrl(m), m.equals("a") ? Role.PRIMARY : Role.STANDBY)).toList();
        ClusterState initial = new ClusterState("main", 1, "a", Phase.HEALTHY, members,
                List.of(new HistoryEntry(1, "uninitialised", "HEALTHY", "cluster initialised with primary a", 1)));
        return phase == Phase.HEALTHY ? initial : initial.transition(phase, "the coordinator was here when it stopped", 2);
    }

    Coordinator start() {
        coordinator = new Coordinator(config, store, new Collaborators(clock, roles, fencer, detector, Map.copyOf(standbys),
                lease, new FakeMarker(), new Wakeup())).start();
        return coordinator;
    }

    Phase phase() {
        ClusterState state = store.state();
        return state == null ? null : state.phase();
    }

    ClusterState awaitPhase(Phase phase) {
        Await.until("the cluster is " + phase, TIMEOUT, this::phase, p -> p == phase);
        return store.state();
    }

    /** The phase changes recorded in the history, oldest first, as "HEALTHY -> SUSPECT". */
    List<String> transitions() {
        return store.state().history().stream().filter(h -> !h.from().equals(h.to())).map(h -> h.from() + " -> " + h.to()).toList();
    }

    /** The reason recorded with the latest entry into {@code phase}. */
    String reasonFor(Phase phase) {
        List<HistoryEntry> into = store.state().history().stream().filter(h -> h.to().equals(phase.name()) && !h.from().equals(h.to())).toList();
        return into.isEmpty() ? null : into.get(into.size() - 1).reason();
    }

    Role role(String member) {
        return store.state().member(member).orElseThrow().role();
    }

    String lastDecision() {
        return (String) coordinator.status().get("last_decision");
    }

    /** Runs an operator's request on its own thread: the test watches the cluster while the coordinator works on it. */
    static CompletableFuture<Map<String, Object>> async(Callable<Map<String, Object>> request) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return request.call();
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        });
    }

    static URI applier(String member) {
        return URI.create("http://" + member + ".applier:7401");
    }

    static URI shipper(String member) {
        return URI.create("http://" + member + ".shipper:7402");
    }

    static String jdbcUrl(String member) {
        return "jdbc:postgresql://" + member + ".db:5432/app";
    }

    private static Properties properties(boolean autoFailover) {
        Properties p = new Properties();
        p.setProperty("members", String.join(",", MEMBERS));
        for (String member : MEMBERS) {
            p.setProperty("member." + member + ".jdbc.url", jdbcUrl(member));
            p.setProperty("member." + member + ".applier.admin", applier(member).toString());
            p.setProperty("member." + member + ".shipper.admin", shipper(member).toString());
        }
        p.setProperty("initial.primary", "a");
        p.setProperty("detect.interval.ms", "5");
        p.setProperty("failover.auto", Boolean.toString(autoFailover));
        return p;
    }

    @Override
    public void close() {
        if (coordinator != null) {
            coordinator.close(); // closes the lease too
        } else {
            lease.close();
        }
    }
}
