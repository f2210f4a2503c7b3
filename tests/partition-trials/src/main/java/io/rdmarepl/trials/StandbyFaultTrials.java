package io.rdmarepl.trials;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmarepl.client.FailoverDataSource;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.SmallDisk;
import io.rdmarepl.testsupport.cluster.HostCluster;
import io.rdmarepl.testsupport.cluster.RoleProcess;
import io.rdmarepl.testsupport.history.ClientWriter;
import io.rdmarepl.testsupport.history.WriteHistory;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 21's faults of the standby that must change nothing but the pace of commits (scenarios 4 and 6): the
 * application writes across the fault, the primary stays primary, and once the fault is gone the load goes on by
 * itself. Each answer also says how many writes were acknowledged during the fault (after
 * {@link PartitionTrials#FEEDBACK_GRACE}) and after it.
 */
public final class StandbyFaultTrials {
    /** Scenario 6's disk: the standby's copy of the test table, a few MB, fits easily until a filler takes the rest. */
    static final int SMALL_DISK_MB = 32;
    private static final Logger LOG = LoggerFactory.getLogger(StandbyFaultTrials.class);

    private final HostCluster cluster;
    private final PartitionTrials trials;

    public StandbyFaultTrials(HostCluster cluster) {
        this.cluster = cluster;
        this.trials = new PartitionTrials(cluster);
    }

    /**
     * Scenario 4: the standby's host is cut off from the primary's (both ways) during a load, while the coordinator
     * still sees both, for {@code cutFor}; then healed.
     *
     * @param shipperExits a third into the cut the primary's shipper is killed, as its exit on a lost standby ends it;
     *     its supervisor starts it again, and the restart waits to connect to the standby the cut hides. The coordinator
     *     still reaches the primary, so its lease renewals must keep the lease that shipper left counting: a primary
     *     fenced by its own guard here stays fenced after the heal
     */
    public StandbyCut standbyCutFromPrimary(int trial, Duration cutFor, boolean shipperExits) throws Exception {
        String primary = trials.primary();
        String standby = PartitionTrials.other(primary);
        Set<String> phases = new TreeSet<>();
        String[] shipperDuringCut = new String[1];
        AcrossFault cut = acrossFault(() -> {
            cluster.network().partitions().cut(cluster.host(primary), cluster.host(standby));
            LOG.info("scenario 4 trial {}: {} cut off from {}", trial, standby, primary);
        }, () -> {
            if (shipperExits) {
                trials.observePhases(cutFor.dividedBy(3), phases);
                RoleProcess shipper = cluster.shipper(primary);
                shipper.kill();
                Await.until(primary + "'s shipper started again", PartitionTrials.FAILOVER_TIMEOUT, () -> cluster.shipper(primary) != shipper);
                LOG.info("scenario 4 trial {}: {}'s shipper killed during the cut and started again", trial, primary);
                trials.observePhases(cutFor.minus(cutFor.dividedBy(3)), phases);
            } else {
                trials.observePhases(cutFor, phases);
            }
            shipperDuringCut[0] = cluster.shipperStatusOrError(primary);
        }, () -> cluster.network().partitions().healAll());
        LOG.info("scenario 4 trial {}: {}; phases seen {}", trial, cut.application(), phases);
        String notes = (shipperExits ? "the shipper killed a third into the cut; " : "") + "phases seen " + phases + "; "
                + cut.during() + " writes acknowledged while cut (after " + PartitionTrials.FEEDBACK_GRACE.toMillis() + " ms), "
                + cut.after() + " after the heal; shipper of " + primary + " during the cut: " + shipperDuringCut[0];
        return new StandbyCut(trials.healed(4, trial, primary, cut.history(), cut.faultNs(), -1, 0, notes), cut.during(), cut.after());
    }

    /** Scenario 4's answer: the trial, and the writes acknowledged while the standby was cut off and after the heal. */
    public record StandbyCut(TrialResult result, long acknowledgedWhileCut, long acknowledgedAfterHeal) {
    }

    /**
     * Scenario 6: the standby's disk fills during the load. The standby's copy of {@code client_writes} (table and key)
     * lives on a small tmpfs of its own ({@link SmallDisk}, a tablespace on the standby only); a filler takes all its
     * space for {@code fullFor}, then is deleted. The answer also says what the standby's applier reported while the
     * disk was full.
     */
    public DiskFull standbyDiskFills(int trial, Duration fullFor) throws Exception {
        String primary = trials.primary();
        String standby = PartitionTrials.other(primary);
        PostgresServer replica = cluster.server(standby);
        // it stays mounted for the rest of the cluster's life (the table lives on it) and goes with the postmaster
        SmallDisk disk = SmallDisk.mount(replica.pid(), cluster.directory().resolve("small-disk-" + standby), SMALL_DISK_MB);
        try (Connection c = replica.connect("postgres"); Statement s = c.createStatement()) {
            s.execute("SET default_transaction_read_only = off"); // a standby refuses writes but its applier's
            s.execute("SET synchronous_commit = local"); // this set-up is not under test: it must not wait for any shipper
            s.execute("CREATE TABLESPACE small_disk LOCATION '" + disk.directory() + "'");
            s.execute("ALTER TABLE client_writes SET TABLESPACE small_disk");
            s.execute("ALTER INDEX client_writes_pkey SET TABLESPACE small_disk");
            // a page holds ~18 of these rows rather than ~180: the standby needs new space within a few writes
            s.execute("ALTER TABLE client_writes SET (fillfactor = 10)");
        }
        Set<String> phases = new TreeSet<>();
        Set<String> applierSaw = new TreeSet<>();
        AcrossFault full = acrossFault(() -> {
            disk.fill();
            LOG.info("scenario 6 trial {}: {}'s disk is full ({} bytes free)", trial, standby, disk.freeBytes());
        }, () -> {
            long endNs = System.nanoTime() + fullFor.toNanos();
            while (System.nanoTime() - endNs < 0) {
                phases.add(cluster.coordinator().status().path("phase").asText());
                applierSaw.add(applierState(cluster.applierStatusOrError(standby)));
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100)); // sampling the full disk's length: not a wait
            }
        }, () -> {
            disk.free();
            LOG.info("scenario 6 trial {}: {}'s disk has space again ({} bytes free)", trial, standby, disk.freeBytes());
        });
        LOG.info("scenario 6 trial {}: {}; phases seen {}; the applier: {}", trial, full.application(), phases, applierSaw);
        String notes = "phases seen " + phases + "; " + full.during() + " writes acknowledged while the disk was full (after "
                + PartitionTrials.FEEDBACK_GRACE.toMillis() + " ms), " + full.after() + " after; the standby's applier meanwhile: "
                + applierSaw;
        return new DiskFull(trials.healed(6, trial, primary, full.history(), full.faultNs(), -1, 0, notes), applierSaw,
                full.during(), full.after());
    }

    /** Scenario 6's answer: the trial, the applier's states and errors seen while the disk was full, the writes then and after. */
    public record DiskFull(TrialResult result, Set<String> applierSaw, long acknowledgedWhileFull, long acknowledgedAfterFreed) {
    }

    /** Writes acknowledged in [{@code fromNs}, {@code toNs}]. */
    public static long acknowledgedBetween(WriteHistory history, long fromNs, long toNs) {
        return history.acks().stream().filter(a -> a.acknowledgedNs() - fromNs >= 0 && a.acknowledgedNs() - toNs <= 0).count();
    }

    /** One step of a fault; a failure ends the trial. */
    @FunctionalInterface
    private interface Step {
        void run() throws Exception;
    }

    /**
     * What the application did across a fault: its history, when the fault began, the writes acknowledged during it
     * (after the grace) and after it, and the writer's own summary.
     */
    private record AcrossFault(WriteHistory history, long faultNs, long during, long after, String application) {
    }

    /**
     * The application writes through the failover-aware data source; once it has 50 acknowledged, {@code begin} makes the
     * fault, {@code during} lasts its length, {@code end} removes it, and the load must go on by itself: commits held
     * meanwhile complete and 50 new ones follow.
     */
    private AcrossFault acrossFault(Step begin, Step during, Step end) throws Exception {
        WriteHistory history = new WriteHistory();
        try (FailoverDataSource dataSource = Applications.dataSource(cluster);
             ClientWriter application = trials.following(dataSource, history)) {
            application.awaitMore(50, Duration.ofSeconds(30));
            long faultNs = System.nanoTime();
            begin.run();
            during.run();
            long endNs = System.nanoTime();
            end.run();
            application.awaitMore(50, PartitionTrials.HEAL_TIMEOUT);
            return new AcrossFault(history, faultNs, acknowledgedBetween(history, faultNs + PartitionTrials.FEEDBACK_GRACE.toNanos(), endNs),
                    acknowledgedBetween(history, endNs, System.nanoTime()), application.toString());
        }
    }

    /** "state: last_error" of an applier's /status, or the whole answer when it is not one. */
    private static String applierState(String status) {
        try {
            JsonNode node = new com.fasterxml.jackson.databind.ObjectMapper().readTree(status);
            return node.path("state").asText() + ": " + node.path("last_error").asText();
        } catch (java.io.IOException | RuntimeException e) {
            return status;
        }
    }
}
