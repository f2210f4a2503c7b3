package io.rdmarepl.coordinator.machine;

import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.detect.Detection;
import io.rdmarepl.coordinator.detect.FailureDetector;
import io.rdmarepl.coordinator.detect.ProbeView;
import io.rdmarepl.coordinator.detect.StandbyMonitor;
import io.rdmarepl.coordinator.detect.StandbyView;
import io.rdmarepl.coordinator.detect.Verdict;
import io.rdmarepl.coordinator.fence.SqlFencer;
import io.rdmarepl.coordinator.roles.ShipperLease;
import io.rdmarepl.coordinator.state.Phase;
import io.rdmarepl.coordinator.store.FileStateStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * An unplanned failover played through before the coordinator starts, so that the real one, which comes cold in every
 * new process (a failover is never the first thing a coordinator does), finds its code loaded, linked and partly
 * compiled: the state machine's cycle (HEALTHY, SUSPECT, FENCING, DRAINING, PROMOTING, PROMOTED), {@link Failover},
 * the detection rule with a postmaster's exit, the fence of an exited primary, the answers' JSON, the state file's
 * writes (synced and lazy) and the topology's publication. On a busy 2-vCPU standby host, that cold path cost more
 * than the failover itself.
 *
 * <p>It touches nothing outside this process: a cluster of its own (members {@code a} and {@code b} at reserved
 * {@code .invalid} addresses), a state file in a directory of its own (deleted after), roles that are
 * {@link RehearsalRoles} in memory, a detector that judges with the real {@link Detection} rule on made-up views. The
 * caller silences the coordinator's logs meanwhile: the transitions it makes are no cluster's.
 */
public final class FailoverRehearsal {
    /** A rehearsal that does not reach PROMOTED in this time is left: the coordinator starts anyway, cold. */
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String PRIMARY = "a";
    private static final String STANDBY = "b";

    private FailoverRehearsal() {
    }

    /**
     * What the rehearsal did.
     *
     * @param promoted rounds whose cluster reached PROMOTED with the standby as primary
     */
    public record Result(int rounds, int promoted, long tookMs) {
        /** e.g. "rehearsed 3 of 3 failover(s) in memory in 412 ms". */
        public String sentence() {
            return "rehearsed " + promoted + " of " + rounds + " failover(s) in memory in " + tookMs + " ms";
        }
    }

    /**
     * Plays {@code rounds} failovers, each on a fresh cluster.
     *
     * @param rounds how many (each one loads less and runs faster code: 2 or 3 give most of the gain)
     */
    public static Result run(int rounds) {
        long startNs = System.nanoTime();
        int promoted = 0;
        for (int round = 0; round < rounds; round++) {
            refusedProbe();
            if (round(round)) {
                promoted++;
            }
        }
        return new Result(rounds, promoted, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));
    }

    /** @return true when the rehearsal's cluster reached PROMOTED at epoch 2 */
    private static boolean round(int round) {
        Path directory;
        try {
            directory = Files.createTempDirectory("rdmarepl-rehearsal-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the failover rehearsal's directory: " + e.getMessage(), e);
        }
        try (FileStateStore store = FileStateStore.open(directory.resolve("state.json"))) {
            CoordinatorConfig config = CoordinatorConfig.load(properties(directory));
            RehearsalRoles roles = new RehearsalRoles();
            RehearsalDetector detector = new RehearsalDetector();
            RehearsalStandby standby = new RehearsalStandby();
            ShipperLease lease = new ShipperLease(roles, store::holdsLeadership);
            Wakeup wakeup = new Wakeup();
            Collaborators parts = new Collaborators(SystemClock.INSTANCE, roles, new SqlFencer(config, roles), detector,
                    Map.of(STANDBY, standby), lease, (primary, why) -> 0L, wakeup);
            try (Coordinator coordinator = new Coordinator(config, store, parts).start()) {
                if (!awaitPhase(coordinator, Phase.HEALTHY)) {
                    return false;
                }
                detector.exited("process " + (4711 + round) + " is gone");
                standby.silent();
                wakeup.run();
                boolean done = awaitPhase(coordinator, Phase.PROMOTED);
                coordinator.status();
                coordinator.topology().await(0, 0);
                return done && STANDBY.equals(coordinator.status().get("primary"));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        } finally {
            deleteQuietly(directory);
        }
    }

    /**
     * A probe of a dead primary, as the detector makes it: a JDBC connection refused (a loopback port just closed), so the
     * driver's failure path (its exception and message) is loaded before a primary dies.
     */
    private static void refusedProbe() {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        } catch (IOException e) {
            return; // no loopback port: the probe's failure path stays cold
        }
        Properties credentials = new Properties();
        credentials.setProperty("user", "rehearsal");
        credentials.setProperty("password", "");
        credentials.setProperty("connectTimeout", "1");
        try (Connection connection = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/rehearsal", credentials)) {
            connection.isValid(1); // something took the port meanwhile and spoke PostgreSQL: nothing to learn from it
        } catch (SQLException expected) {
            expected.getMessage();
        }
    }

    private static boolean awaitPhase(Coordinator coordinator, Phase phase) {
        long deadlineNs = System.nanoTime() + TIMEOUT.toNanos();
        while (coordinator.phase() != phase) {
            if (System.nanoTime() - deadlineNs > 0 || Thread.currentThread().isInterrupted()) {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // the coordinator's thread works meanwhile
        }
        return true;
    }

    private static Properties properties(Path directory) {
        Properties p = new Properties();
        p.setProperty("cluster.name", "rehearsal");
        p.setProperty("members", PRIMARY + "," + STANDBY);
        for (String member : new String[] {PRIMARY, STANDBY}) {
            p.setProperty("member." + member + ".jdbc.url", "jdbc:postgresql://" + member + ".rehearsal.invalid:5432/rehearsal");
            p.setProperty("member." + member + ".applier.admin", RehearsalRoles.applier(member).toString());
            p.setProperty("member." + member + ".shipper.admin", RehearsalRoles.shipper(member).toString());
        }
        p.setProperty("initial.primary", PRIMARY);
        p.setProperty("state.file", directory.resolve("state.json").toString());
        return p;
    }

    private static void deleteQuietly(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // a few bytes left in the temporary directory
        }
    }

    /** The real detection rule on made-up views: healthy until {@link #exited}, then a failed probe and an exited postmaster. */
    private static final class RehearsalDetector implements FailureDetector {
        private final Detection detection = new Detection(Duration.ofMillis(20), 2, Duration.ofSeconds(2));
        private volatile String exit;

        void exited(String why) {
            exit = why;
        }

        @Override
        public void probe(String jdbcUrl) {
        }

        @Override
        public void readShipper(URI shipperAdmin) {
        }

        @Override
        public Verdict judge(String primary, Collection<StandbyView> standbys) {
            return detection.judge(primary, probeView(), standbys, exit);
        }

        @Override
        public String postmasterExit() {
            return exit;
        }

        @Override
        public boolean shipperFenced() {
            return false;
        }

        @Override
        public void shipperFenceLifted() {
        }

        @Override
        public String awaitPostmasterExit() {
            return exit;
        }

        @Override
        public void hold() {
        }

        @Override
        public void resume() {
        }

        @Override
        public ProbeView probeView() {
            return exit == null ? new ProbeView("jdbc:postgresql://a.rehearsal.invalid:5432/rehearsal", 0, null, 0, 1, "0/3000060")
                    : new ProbeView("jdbc:postgresql://a.rehearsal.invalid:5432/rehearsal", 1,
                    "Connection to a.rehearsal.invalid:5432 refused.", 1, 30, "0/3000060");
        }

        @Override
        public void close() {
        }
    }

    /** Standby b, streaming with fresh heartbeats until the primary goes silent. */
    private static final class RehearsalStandby implements StandbyMonitor {
        private volatile StandbyView view = new StandbyView(STANDBY, true, "streaming", "0/3000060", "0/3000060", 3, 0, 1, 1, null);

        void silent() {
            view = new StandbyView(STANDBY, true, "streaming", "0/3000060", "0/3000060", 40, 0, 1, 1, null);
        }

        @Override
        public String name() {
            return STANDBY;
        }

        @Override
        public StandbyView view() {
            return view;
        }

        @Override
        public StandbyView freshView(Duration wait) {
            return view;
        }

        @Override
        public String applierError() {
            return null;
        }

        @Override
        public void close() {
        }
    }
}
