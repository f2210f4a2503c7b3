package io.rdmarepl.trials;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmarepl.client.FailoverDataSource;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.cluster.HostCluster;
import io.rdmarepl.testsupport.cluster.RoleProcess;
import io.rdmarepl.testsupport.compare.ComparisonReport;
import io.rdmarepl.testsupport.compare.ReplicaComparison;
import io.rdmarepl.testsupport.history.Ack;
import io.rdmarepl.testsupport.history.ClientWriter;
import io.rdmarepl.testsupport.history.HistoryCheck;
import io.rdmarepl.testsupport.history.WriteHistory;
import io.rdmarepl.testsupport.net.Impairments;
import io.rdmarepl.testsupport.net.Partitions;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The trials of issue 21's scenarios against a {@link HostCluster}, each judged by a client-side {@link WriteHistory}:
 * an application on the failover-aware DataSource writes all along (and in scenario 1 a client insisting on the old
 * primary too); the trial cuts or impairs links, heals them, brings the cluster back to HEALTHY (by itself, or with
 * the runbook's one command, {@code rdmarepl rejoin OLD}) and returns what it saw. The checks are the caller's.
 */
public final class PartitionTrials {
    public static final Duration FAILOVER_TIMEOUT = HostCluster.FAILOVER_TIMEOUT;
    public static final Duration HEAL_TIMEOUT = Duration.ofSeconds(90);
    /** How long the standby may take to catch up with the primary once the fault is gone. */
    static final Duration CATCH_UP_TIMEOUT = Duration.ofSeconds(60);
    /** How long an operator retries `rdmarepl rejoin` while the coordinator cannot see the old primary yet. */
    static final Duration REJOIN_TIMEOUT = Duration.ofSeconds(30);
    /** Async mode: commits younger than this when a fault begins may not have reached the standby (shipping takes ms). */
    public static final Duration IN_FLIGHT = Duration.ofSeconds(1);
    /**
     * Sync mode: a commit may still return this long after its standby was cut off, when the standby's acknowledgement
     * reached the shipper just before the cut (it is forwarded at once: milliseconds).
     */
    public static final Duration FEEDBACK_GRACE = Duration.ofMillis(500);
    private static final Logger LOG = LoggerFactory.getLogger(PartitionTrials.class);
    private static final AtomicLong MARKERS = new AtomicLong(1);

    private final HostCluster cluster;
    private final Partitions partitions;

    public PartitionTrials(HostCluster cluster) {
        this.cluster = cluster;
        this.partitions = cluster.network().partitions();
    }

    /**
     * Scenario 1: the primary's host is cut off from the coordinator and the standby, while its clients still reach it.
     * Waits for the failover, heals, rejoins the old primary (the runbook's one command) and waits for HEALTHY.
     */
    public TrialResult primaryCutOff(int trial) throws Exception {
        return primaryCutOff(trial, false, false);
    }

    /**
     * Scenario 1, with the old primary's shipper killed (its supervisor starts it again with its configuration, for the
     * first primary activation=immediate and its old slot): with {@code crashDuringCut} once the standby is promoted,
     * still during the cut, as happens when it exits on its own for the lost standby, but every time (the rejoin comes
     * while it starts); with {@code crashAfterRejoin} once it is a standby, when it must ship nothing.
     */
    public TrialResult primaryCutOff(int trial, boolean crashDuringCut, boolean crashAfterRejoin) throws Exception {
        return primaryCutOff(1, trial, crashDuringCut, crashAfterRejoin, Duration.ZERO).result();
    }

    /**
     * Scenario 7: scenario 1's cut and failover, then the old primary comes back: the partition heals while the
     * application and a client insisting on the old primary go on writing, and for {@code returnedFor} nobody runs the
     * runbook. The old primary must take no write meanwhile (its lease guard fenced it), the coordinator must stay with
     * the new primary, and the application with it; then {@code rdmarepl rejoin} makes the old primary a standby.
     */
    public OldPrimaryReturns oldPrimaryReturns(int trial, Duration returnedFor) throws Exception {
        return primaryCutOff(7, trial, false, false, returnedFor);
    }

    /**
     * Scenario 7's answer: the trial, the writes the old primary acknowledged after the heal (must be none), the phases
     * and primaries the coordinator showed meanwhile, and the application's writes the new primary took meanwhile.
     */
    public record OldPrimaryReturns(TrialResult result, long acknowledgedByOldPrimaryAfterHeal, Set<String> phasesAfterHeal,
                                    Set<String> primariesAfterHeal, long acknowledgedByNewPrimaryAfterHeal) {
    }

    private OldPrimaryReturns primaryCutOff(int scenario, int trial, boolean crashDuringCut, boolean crashAfterRejoin,
                                            Duration returnedFor) throws Exception {
        String primary = primary();
        String standby = other(primary);
        WriteHistory history = new WriteHistory();
        long cutNs;
        long healNs = 0;
        Set<String> phasesAfterHeal = new TreeSet<>();
        Set<String> primariesAfterHeal = new TreeSet<>();
        JsonNode failover;
        try (FailoverDataSource dataSource = Applications.dataSource(cluster);
             ClientWriter application = following(dataSource, history);
             ClientWriter insisting = insistingOn(cluster.server(primary), history)) {
            application.awaitMore(50, Duration.ofSeconds(30));
            insisting.awaitMore(20, Duration.ofSeconds(30));
            cutNs = System.nanoTime();
            partitions.isolate(cluster.host(primary), cluster.host(standby), cluster.coordinatorHost());
            LOG.info("scenario {} trial {}: {} cut off from {} and the coordinator", scenario, trial, primary, standby);
            failover = cluster.coordinator().awaitPhase("PROMOTED", FAILOVER_TIMEOUT).path("last_failover");
            Await.until(standby + " acknowledges the application's writes", FAILOVER_TIMEOUT, () -> history.count(standby), n -> n >= 20);
            if (crashDuringCut) {
                RoleProcess shipper = cluster.shipper(primary);
                shipper.kill();
                LOG.info("scenario {} trial {}: {}'s shipper killed during the cut ({}); its supervisor starts it again", scenario, trial,
                        primary, shipper);
                Await.until(primary + "'s shipper started again", FAILOVER_TIMEOUT, () -> cluster.shipper(primary) != shipper);
            }
            if (!returnedFor.isZero()) {
                healNs = System.nanoTime();
                partitions.healAll();
                LOG.info("scenario {} trial {}: healed; {} is back and nobody runs the runbook for {} ms", scenario, trial, primary,
                        returnedFor.toMillis());
                observeWhileReturned(returnedFor, phasesAfterHeal, primariesAfterHeal);
            }
            LOG.info("scenario {} trial {}: {}; {}; failover {}", scenario, trial, application, insisting, failover);
        }
        long oldAfterHeal = healNs == 0 ? 0 : acknowledgedBy(history, primary, healNs);
        long newAfterHeal = healNs == 0 ? 0 : acknowledgedBy(history, standby, healNs);
        List<Ack> oldAcks = history.acksBy(primary);
        Ack lastOld = oldAcks.get(oldAcks.size() - 1);
        long selfFenceMs = TimeUnit.NANOSECONDS.toMillis(lastOld.acknowledgedNs() - cutNs);
        long promotingAtMs = lastTransitionTo("PROMOTING");
        String shipper = cluster.shipperStatusOrError(primary);

        partitions.healAll();
        String returned = healNs == 0 ? "" : "; after the heal, " + returnedFor.toMillis() + " ms without the runbook: " + primary
                + " acknowledged " + oldAfterHeal + " write(s), " + standby + " " + newAfterHeal + ", phases " + phasesAfterHeal
                + ", primaries " + primariesAfterHeal;
        TrialResult result = healed(scenario, trial, primary, history, cutNs, selfFenceMs, promotingAtMs - lastOld.acknowledgedAtMs(),
                "lease wait " + failover.path("lease_wait_ms").asLong() + " ms, fence confirmed "
                + failover.path("fence_confirmed").asBoolean() + ", old primary's shipper: " + shipper + returned);
        if (crashAfterRejoin) {
            crashShipperOfStandby(primary);
        }
        return new OldPrimaryReturns(result, oldAfterHeal, phasesAfterHeal, primariesAfterHeal, newAfterHeal);
    }

    /** Samples the coordinator's phase and primary while the old primary is back and nobody ran the runbook. */
    private void observeWhileReturned(Duration length, Set<String> phases, Set<String> primaries) {
        long endNs = System.nanoTime() + length.toNanos();
        while (System.nanoTime() - endNs < 0) {
            try {
                JsonNode status = cluster.coordinator().status();
                phases.add(status.path("phase").asText());
                primaries.add(status.path("primary").asText());
            } catch (Exception e) {
                phases.add("unanswered: " + e);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // sampling the window: not a wait for something
        }
    }

    private static long acknowledgedBy(WriteHistory history, String member, long fromNs) {
        return history.acksBy(member).stream().filter(a -> a.acknowledgedNs() >= fromNs).count();
    }

    /**
     * {@code member} is a standby now: its shipper, killed and started again by its supervisor with its configuration
     * (for the first primary activation=immediate, its old slot), must ship nothing.
     */
    private void crashShipperOfStandby(String member) {
        RoleProcess shipper = cluster.shipper(member);
        shipper.kill();
        Await.until(member + "'s shipper started again", FAILOVER_TIMEOUT, () -> cluster.shipper(member) != shipper);
        String status = Await.until(member + "'s restarted shipper answers", FAILOVER_TIMEOUT, () -> cluster.shipperStatusOrError(member),
                answer -> answer.startsWith("{"));
        LOG.info("{} is a standby; its shipper, killed and started again: {}", member, status);
        if (status.contains("\"role_state\":\"shipping\"")) {
            throw new AssertionError(member + " is a standby, yet its shipper, started again by its supervisor, ships: " + status
                    + "\n" + cluster.tails());
        }
    }

    /** Scenario 2: the coordinator is cut off from the primary only; the standby still hears both. */
    public TrialResult coordinatorCutFromPrimary(int trial, Duration cutFor) throws Exception {
        String primary = primary();
        WriteHistory history = new WriteHistory();
        Set<String> phases = new TreeSet<>();
        long cutNs;
        String notes;
        try (FailoverDataSource dataSource = Applications.dataSource(cluster);
             ClientWriter application = following(dataSource, history)) {
            application.awaitMore(50, Duration.ofSeconds(30));
            cutNs = System.nanoTime();
            partitions.cut(cluster.coordinatorHost(), cluster.host(primary));
            LOG.info("scenario 2 trial {}: the coordinator cut off from {}", trial, primary);
            long during = application.acknowledged();
            observePhases(cutFor, phases);
            long acknowledgedDuringCut = application.acknowledged() - during;
            String shipper = cluster.shipperStatusOrError(primary);
            partitions.healAll();
            LOG.info("scenario 2 trial {}: {} ({} during the cut); phases seen {}", trial, application, acknowledgedDuringCut, phases);
            notes = "phases seen " + phases + ", " + acknowledgedDuringCut + " writes acknowledged during the cut; shipper of "
                    + primary + " then: " + shipper;
        }
        return healed(2, trial, primary, history, cutNs, -1, 0, notes);
    }

    /**
     * Issue 21, hole 3: the application no longer hears the coordinator (the coordinator's host drops its packets) while
     * the primary stays reachable. A data source with {@code topologyMaxAge} goes on handing out connections to the
     * primary it knows, then refuses (08001) once no coordinator confirmed that topology within the bound, and hands
     * them out again once the coordinator is heard.
     */
    public ClientCut clientCutFromCoordinator(Duration maxAge) throws Exception {
        Duration connectionTimeout = Duration.ofSeconds(1);
        try (FailoverDataSource dataSource = Applications.dataSource(cluster.coordinator(), maxAge, connectionTimeout)) {
            Await.until("the data source hands out a connection", FAILOVER_TIMEOUT, () -> connectionOrError(dataSource), ""::equals);
            long cutNs = System.nanoTime();
            partitions.cutOneWay(cluster.network().client(), cluster.coordinatorHost());
            String rightAfter = connectionOrError(dataSource);
            String refusal = Await.until("the data source refuses a topology no coordinator confirms", FAILOVER_TIMEOUT,
                    () -> connectionOrError(dataSource), error -> !error.isEmpty());
            long refusedAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cutNs);
            long healNs = System.nanoTime();
            partitions.healAll();
            Await.until("the data source hands out connections again", FAILOVER_TIMEOUT, () -> connectionOrError(dataSource), ""::equals);
            long backAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - healNs);
            LOG.info("client cut from the coordinator (bound {} ms): right after the cut '{}', refused after {} ms: {}; back {} ms after the heal",
                    maxAge.toMillis(), rightAfter, refusedAfterMs, refusal, backAfterMs);
            return new ClientCut(rightAfter, refusedAfterMs, refusal, backAfterMs);
        }
    }

    /** What a data source did with its coordinator out of reach: "" where it handed out a connection. */
    public record ClientCut(String rightAfterCut, long refusedAfterMs, String refusal, long backAfterHealMs) {
    }

    /** "" when {@code dataSource} hands out a working connection, else its error. */
    private static String connectionOrError(FailoverDataSource dataSource) {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("SELECT 1");
            return "";
        } catch (java.sql.SQLException e) {
            return e.getSQLState() + " " + e.getMessage();
        }
    }

    /**
     * Scenario 5: {@code lossPercent} loss (and, where the kernel has netem, delay with jitter) between the primary's
     * host and the standby's for {@code flakyFor}, then healed: the replica catches up and equals the primary.
     */
    public TrialResult flakyLink(int trial, int lossPercent, Duration jitter, Duration flakyFor) throws Exception {
        String primary = primary();
        String standby = other(primary);
        WriteHistory history = new WriteHistory();
        Set<String> phases = new TreeSet<>();
        Impairments impairments = cluster.network().impairments();
        String applied = lossPercent + "% loss";
        long faultNs;
        String notes;
        try (FailoverDataSource dataSource = Applications.dataSource(cluster);
             ClientWriter application = following(dataSource, history)) {
            application.awaitMore(50, Duration.ofSeconds(30));
            faultNs = System.nanoTime();
            impairments.loss(cluster.host(primary), cluster.host(standby), lossPercent);
            String noDelay = Impairments.delayUnavailable(cluster.host(primary)).orElse(null);
            if (noDelay == null) {
                impairments.delay(cluster.host(primary), jitter, jitter);
                impairments.delay(cluster.host(standby), jitter, jitter);
                applied += ", " + jitter.toMillis() + " ms ± " + jitter.toMillis() + " ms delay";
            } else {
                applied += "; jitter not applied: " + noDelay;
            }
            LOG.info("scenario 5 trial {}: {} between {} and {}", trial, applied, primary, standby);
            long during = application.acknowledged();
            observePhases(flakyFor, phases);
            long acknowledgedDuringLoss = application.acknowledged() - during;
            impairments.restoreAll();
            LOG.info("scenario 5 trial {}: {} ({} during the loss); phases seen {}", trial, application, acknowledgedDuringLoss, phases);
            notes = applied + "; phases seen " + phases + ", " + acknowledgedDuringLoss + " writes acknowledged during the loss";
        }
        return healed(5, trial, primary, history, faultNs, -1, 0, notes);
    }

    /**
     * The fault is gone: back to HEALTHY, by itself or, after a failover, with the runbook's one command
     * ({@code rdmarepl rejoin OLD}); then the standby catches up with the primary and must equal it. The writers have
     * stopped. Lost: what any member acknowledged that the surviving primary lacks; of those, the ones acknowledged more
     * than {@link #IN_FLIGHT} before the fault began cannot have been in flight.
     */
    TrialResult healed(int scenario, int trial, String primaryBefore, WriteHistory history, long faultNs, long selfFenceMs,
                       long fencedBeforePromotingMs, String notes) throws Exception {
        Await.until("the coordinator settles (HEALTHY, or PROMOTED after a failover)", HEAL_TIMEOUT,
                () -> cluster.coordinator().status().path("phase").asText(), phase -> phase.equals("HEALTHY") || phase.equals("PROMOTED"));
        String survivor = primary();
        String heal = "by itself";
        if (!survivor.equals(primaryBefore)) {
            heal = "with `rdmarepl rejoin " + primaryBefore + "` (failed over: " + whyFailedOver() + ")";
            rejoin(primaryBefore);
        }
        cluster.coordinator().awaitPhase("HEALTHY", HEAL_TIMEOUT);
        String standby = other(survivor);
        awaitReplicated(survivor, standby);
        ComparisonReport tables = ReplicaComparison.between(cluster.server(survivor), cluster.server(standby)).run();
        Set<Long> held = ClientWriter.ids(cluster.server(survivor));
        Set<Long> lost = new TreeSet<>();
        for (String member : List.of("a", "b")) {
            lost.addAll(HistoryCheck.lost(history.ids(member), held));
        }
        Set<Long> lostBeforeFault = new TreeSet<>();
        history.acks().stream().filter(a -> lost.contains(a.id()) && a.acknowledgedNs() < faultNs - IN_FLIGHT.toNanos())
                .forEach(a -> lostBeforeFault.add(a.id()));
        return new TrialResult(scenario, trial, primaryBefore, survivor, HistoryCheck.windows(history.acks()),
                HistoryCheck.overlappingPrimaries(history.acks()), lost, lostBeforeFault, selfFenceMs, fencedBeforePromotingMs, tables.equal(),
                "healed " + heal + "; roles restarted by their supervisors so far: " + cluster.restarts() + "; " + notes + (tables.equal() ? "" : "; replica differs:\n" + tables));
    }

    /** The reason of the coordinator's latest move to FENCING (its verdict on the primary), or of a manual one. */
    private String whyFailedOver() throws Exception {
        JsonNode fencing = lastEntryTo("FENCING");
        return fencing == null ? "no FENCING in the coordinator's history" : fencing.path("reason").asText();
    }

    /** The application: writing through the failover-aware DataSource, acknowledgements named by member. */
    ClientWriter following(FailoverDataSource dataSource, WriteHistory history) {
        return Applications.writerThrough(dataSource).history(history).members(server -> cluster.member(server.address())).start();
    }

    /**
     * A client that reached {@code server} and stays there, in a session that turned read-only off; a statement
     * unanswered for 2 s (a cut host) ends the session, and it connects again.
     */
    ClientWriter insistingOn(PostgresServer server, WriteHistory history) {
        return ClientWriter.insistingOn(server).history(history).members(acknowledger -> cluster.member(acknowledger.address()))
                .socketTimeout(Duration.ofSeconds(2)).start();
    }

    /** Polls the coordinator's phase for {@code length}, keeping every phase seen: a fault that must change nothing. */
    void observePhases(Duration length, Set<String> phases) {
        long endNs = System.nanoTime() + length.toNanos();
        while (System.nanoTime() - endNs < 0) {
            try {
                phases.add(cluster.coordinator().status().path("phase").asText());
            } catch (Exception e) {
                phases.add("unanswered: " + e);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // sampling the window: not a wait for something
        }
    }

    /** {@code rdmarepl rejoin MEMBER}, as an operator runs it once the coordinator sees the old primary again. */
    private void rejoin(String member) {
        Set<String> refusals = new java.util.LinkedHashSet<>();
        try {
            Await.until("the coordinator accepts `rdmarepl rejoin " + member + "`", REJOIN_TIMEOUT, () -> {
                HttpResponse<String> answer = cluster.coordinator().post("/rejoin", "{\"member\":\"" + member + "\"}",
                        HostCluster.COORDINATOR_TOKEN);
                if (answer.statusCode() != 200 && refusals.add(answer.body())) {
                    LOG.info("`rdmarepl rejoin {}` refused: {} {}", member, answer.statusCode(), answer.body());
                }
                return answer.statusCode() + " " + answer.body();
            }, answer -> answer.startsWith("200"));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; every refusal, first first: " + refusals + "\n" + cluster.tails(), e);
        }
    }

    public String primary() throws Exception {
        return cluster.coordinator().status().path("primary").asText();
    }

    public static String other(String member) {
        return member.equals("a") ? "b" : "a";
    }

    long lastTransitionTo(String phase) throws Exception {
        JsonNode entry = lastEntryTo(phase);
        return entry == null ? -1 : entry.path("at_ms").asLong();
    }

    /** The coordinator's latest history entry into {@code phase}, or null when it never went there. */
    private JsonNode lastEntryTo(String phase) throws Exception {
        JsonNode last = null;
        for (JsonNode entry : cluster.coordinator().history()) {
            if (phase.equals(entry.path("to").asText())) {
                last = entry;
            }
        }
        return last;
    }

    /** Commits a marker on {@code from}'s server and waits until {@code to}'s holds it (and so all before it). */
    private void awaitReplicated(String from, String to) throws Exception {
        long marker = MARKERS.getAndIncrement();
        try {
            cluster.server(from).execute("INSERT INTO marker (id) VALUES (" + marker + ")");
        } catch (IllegalStateException e) {
            // the coordinator called it the primary: say what each part thought then, on the line a report shows
            throw new AssertionError(e.getMessage() + "; coordinator: " + cluster.coordinatorStatusOrError() + "; shipper "
                    + from + ": " + cluster.shipperStatusOrError(from) + "; restarted: " + cluster.restarts()
                    + "\n" + cluster.tails(), e);
        }
        Await.until("marker " + marker + " committed on " + from + " reaches " + to, CATCH_UP_TIMEOUT,
                () -> markers(cluster.server(to), marker), n -> n == 1);
    }

    private static long markers(PostgresServer server, long marker) throws java.sql.SQLException {
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FROM marker WHERE id = " + marker)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
