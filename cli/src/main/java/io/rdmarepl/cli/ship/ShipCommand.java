package io.rdmarepl.cli.ship;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmarepl.cli.admin.AdminServer;
import io.rdmarepl.control.ControlJson;
import io.rdmarepl.control.EpochRequest;
import io.rdmarepl.control.FenceAnswer;
import io.rdmarepl.control.FenceRequest;
import io.rdmarepl.control.Guarantee;
import io.rdmarepl.control.LeaseAnswer;
import io.rdmarepl.control.LeaseTerms;
import io.rdmarepl.control.PostmasterStatus;
import io.rdmarepl.control.PrimaryAnswer;
import io.rdmarepl.control.ResumeAnswer;
import io.rdmarepl.control.RetireAnswer;
import io.rdmarepl.control.ShipperActivateAnswer;
import io.rdmarepl.control.ShipperRoutes;
import io.rdmarepl.shipper.Shipper;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.shipper.liveness.RealtimePriority;
import io.rdmarepl.shipper.role.RoleState;
import io.rdmarepl.shipper.role.InitialRole;
import io.rdmarepl.shipper.role.ShipperRole;
import java.io.IOException;
import java.io.Reader;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rdmarepl ship --config shipper.properties}: the sidecar beside the primary. Captures the
 * primary's changes and writes them into every standby's ring until SIGTERM, then stops capture,
 * lets the standby handlers drain and exits. Serves /health, /status and /metrics. With
 * {@code activation=on-request} (a member that is a standby now) it serves only the admin endpoint until the
 * coordinator activates it.
 */
@Command(name = "ship",
        mixinStandardHelpOptions = true,
        description = {"Capture the primary's changes and ship them into the standbys' rings, until stopped (SIGTERM).",
                "Every configuration key, its default and meaning: docs/configuration/shipper.md."})
public final class ShipCommand implements Callable<Integer> {

    @Option(names = "--config", required = true, paramLabel = "FILE",
            description = "Shipper properties file; every key has a default, unknown keys are an error.")
    Path config;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile Runnable onStarted = () -> { };
    private volatile InetSocketAddress adminAddress;

    /** How long SIGTERM waits for the standbys to acknowledge what was shipped, so the slot confirms it. */
    static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(5);
    /** The longest {@code GET /primary?wait_ms=} hold: a held request keeps a thread. */
    static final long MAX_PRIMARY_WAIT_MS = 10_000;
    /** Requests held at once; one per coordinator is what they need. */
    static final int MAX_HELD_PRIMARY_REQUESTS = 8;
    /**
     * How long a shipper whose primary's postmaster exited still answers {@code GET /primary} before it exits: the
     * coordinator reads that exit to confirm a failover's fence, waiting up to a second for it, and without it waits
     * out the primary's whole lease before promoting.
     */
    static final Duration POSTMASTER_EXIT_REPORT = Duration.ofSeconds(2);
    /**
     * How long a shipper whose shipping failed gives its postmaster watch to look once more, now, before it decides
     * there is no exit to report (the wait ends when the watch sees one). The replication connection dies with the
     * postmaster, often before the watch's next tick: a shipper that looked only at what the watch had seen exited
     * unreported, and the coordinator, with nobody to confirm the fence, waited out the old primary's whole lease
     * (RTO 5.3 s in about one host-per-role failover benchmark trial in twenty). The bound is for a busy host, where
     * the watch's thread may run late.
     */
    static final Duration EXIT_LOOK = Duration.ofMillis(200);

    @Override
    public Integer call() throws Exception {
        ShipperConfig settings = ShipperConfig.load(config);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        ShipperRole role = InitialRole.prepare(settings, registry);
        // the endpoint first: a start that waits for a standby a partition hides must still answer the coordinator's
        // lease renewals, or the lease guard fences a primary its coordinator reaches; a restart must reach them
        // within the lease it took over, so warming the answers runs beside the start, not before it
        AdminServer admin = adminServer(settings, role, registry).start();
        adminAddress = admin.address();
        Thread warming = new Thread(() -> warmAdminAnswers(settings, role), "rdmarepl-admin-warm");
        warming.setDaemon(true);
        warming.start();
        try {
            role.startAsConfigured();
        } catch (RuntimeException e) {
            admin.close();
            role.abandon(); // a failed start: the lease, if one counts, stays with its guard
            throw e;
        }
        Thread hook = new Thread(() -> shutdown(admin, role, true), "rdmarepl-ship-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        String status = "admin http://" + admin.address().getHostString() + ":" + admin.address().getPort() + "/status";
        Object reason = role.status().get("reason");
        if (role.state() == RoleState.SHIPPING) {
            spec.commandLine().getOut().printf("rdmarepl ship: %s slot %s to %d standby(s); %s%n",
                    settings.sourceName(), settings.slotName(), settings.standbys().size(), status);
        } else if (reason != null) {
            spec.commandLine().getOut().printf("rdmarepl ship: %s slot %s ships nothing (%s): it waits for the coordinator to retire or"
                    + " activate it; %s%n", settings.sourceName(), settings.slotName(), reason, status);
        } else {
            spec.commandLine().getOut().printf("rdmarepl ship: %s slot %s waits for the coordinator to activate it (POST /activate); %s%n",
                    settings.sourceName(), settings.slotName(), status);
        }
        spec.commandLine().getOut().flush();
        onStarted.run();
        while (!stopped.await(100, TimeUnit.MILLISECONDS)) {
            String failure = role.failure();
            if (failure != null) {
                Runtime.getRuntime().removeShutdownHook(hook);
                reportPostmasterExit(role);
                shutdown(admin, role, false);
                throw new IllegalStateException(failure + " (restart the shipper: it resumes from what the standbys acknowledged)");
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running: it closes everything
        }
        shutdown(admin, role, true);
        return 0;
    }

    /**
     * The shipper's admin endpoint around a shipper already started, not started yet: see
     * {@link #adminServer(ShipperConfig, ShipperRole, PrometheusMeterRegistry)}. Used by the demo and benchmarks,
     * which run the shipper in their own process.
     */
    public static AdminServer adminServer(ShipperConfig settings, Shipper shipper, PrometheusMeterRegistry registry) {
        return adminServer(settings, InitialRole.around(settings, shipper, registry), registry);
    }

    /**
     * The shipper's admin endpoint, not started yet: {@code /health} (200 unless a shipper ships and is unhealthy),
     * {@code /status} ({@code role_state}, {@code activation} and the shipper's own status), {@code /primary} (is the
     * primary alive, did its postmaster exit; with {@code ?wait_ms=N} held until the postmaster exits or N ms pass,
     * the coordinator's long poll, answered on threads of its own under {@code liveness.realtime.priority}), {@code /metrics}, and
     * the token-guarded control actions the coordinator calls: {@code POST /activate} (start shipping from a fresh
     * slot with an initial copy), {@code POST /fence} (stop shipping and heartbeats), {@code POST /resume} (a fenced shipper ships again from
     * its slot, for a failover that was refused), {@code POST /retire} (this
     * member is a standby now: drop the slot) and {@code POST /lease} (renew the lease, {@code fence.lease.ms}; answered with the
     * shipper's guarantee, the lease's terms and a running initial copy's {@code copy_progress}). Every answer but
     * {@code /status} is a record of role-control ({@link ShipperRoutes} names each).
     * Refusals answer 409 with the reason, malformed bodies 400. Address and token: {@code admin.address},
     * {@code admin.token}.
     */
    public static AdminServer adminServer(ShipperConfig settings, ShipperRole role, PrometheusMeterRegistry registry) {
        Semaphore holds = new Semaphore(MAX_HELD_PRIMARY_REQUESTS);
        // a thread per request: an activation may take a while (a slot let go of, standbys connected), and /status,
        // /health and the coordinator's lease renewals must be answered meanwhile
        return new AdminServer(settings.adminAddress(), settings.adminToken(), role::healthy, role::status, registry, 0)
                .control(ShipperRoutes.ACTIVATE, body -> role.activate(EpochRequest.parse(body).epoch()))
                .control(ShipperRoutes.FENCE, body -> {
                    String reason = FenceRequest.parse(body).reason();
                    return role.fence("fenced through the admin endpoint" + (reason.isEmpty() ? "" : ": " + reason));
                })
                .query(ShipperRoutes.PRIMARY, q -> primary(role,
                        AdminServer.longParameter(q, ShipperRoutes.WAIT_MS, 0, 0, MAX_PRIMARY_WAIT_MS), holds),
                        // the answer that carries the postmaster's exit goes out as the watch sees it, not after the
                        // dying primary's processes had the host's CPU (RealtimePriority)
                        Executors.newCachedThreadPool(RealtimePriority.threads("rdmarepl-primary-answer",
                                settings.livenessRealtimePriority())))
                .control(ShipperRoutes.RESUME, body -> role.resume())
                .control(ShipperRoutes.RETIRE, body -> role.retire())
                .control(ShipperRoutes.LEASE, body -> role.renewLease());
    }

    /**
     * Maps every answer of the admin endpoint to JSON once at start, this role's {@code /status} included
     * ({@link ControlJson#warm}). A member's shipper may wait idle for months, then answer the coordinator's first
     * lease renewals and postmaster polls the moment its member was promoted: measured in the host-per-role failover
     * benchmark, building those serializers then took its admin thread 8 to 18 ms of the standby's one CPU, inside
     * the clients' outage.
     */
    static void warmAdminAnswers(ShipperConfig settings, ShipperRole role) {
        LeaseTerms terms = Shipper.leaseTerms(settings);
        Guarantee guarantee = new Guarantee(Guarantee.ASYNC, null, null, "0/0");
        ControlJson.warm(new LeaseAnswer(null, terms, null), new LeaseAnswer(guarantee, terms, Map.of("rows", 0L)),
                PrimaryAnswer.notShipping(), PrimaryAnswer.shipping(true, false, new PostmasterStatus(1L, false, "warm", null)).withFenced(false),
                new FenceAnswer(RoleState.FENCED.label()), new ResumeAnswer(RoleState.SHIPPING.label(), true), new RetireAnswer(RoleState.RETIRED.label(), false, false),
                new ShipperActivateAnswer(RoleState.SHIPPING.label(), settings.slotName(), "initial", false), role.status());
        FenceRequest.parse(new FenceRequest("warm").toJson());
        EpochRequest.parse(new EpochRequest(1).toJson());
    }

    /**
     * {@code GET /primary}, held up to {@code waitMs} while fewer than {@link #MAX_HELD_PRIMARY_REQUESTS} are held:
     * the endpoint needs no token, and each held request keeps a thread; past the cap it is answered at once.
     */
    static PrimaryAnswer primary(ShipperRole role, long waitMs, Semaphore holds)
            throws InterruptedException {
        if (waitMs == 0 || !holds.tryAcquire()) {
            return role.primary(Duration.ZERO);
        }
        try {
            return role.primary(Duration.ofMillis(waitMs));
        } finally {
            holds.release();
        }
    }

    /**
     * Shipping failed: when it failed because the primary's postmaster exited (its replication connection died with
     * it), the admin endpoint goes on answering {@code /primary} with that exit for {@link #POSTMASTER_EXIT_REPORT}
     * (or until stopped). The shipper otherwise exits about 0.1 s after its postmaster, and a coordinator that asks a
     * moment later, on a busy standby host, finds nobody to confirm the fence: one such failover in the host-per-role
     * benchmark waited 4.1 s for the dead primary's lease.
     */
    private void reportPostmasterExit(ShipperRole role) throws InterruptedException {
        if (!role.primary(EXIT_LOOK).reportsExit()) {
            return;
        }
        spec.commandLine().getErr().printf("rdmarepl ship: the primary's postmaster exited; answering /primary for %d ms so the"
                + " coordinator can confirm it, then exiting%n", POSTMASTER_EXIT_REPORT.toMillis());
        spec.commandLine().getErr().flush();
        stopped.await(POSTMASTER_EXIT_REPORT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Stops the command as SIGTERM would (tests). */
    public void stop() {
        stopped.countDown();
    }

    /** Runs {@code action} once the admin endpoint is up and the shipper started as configured (tests). */
    public ShipCommand onStarted(Runnable action) {
        this.onStarted = action;
        return this;
    }

    /** Where the admin endpoint listens, once started (tests). */
    public InetSocketAddress adminAddress() {
        return adminAddress;
    }

    /**
     * @param graceful SIGTERM: wait (up to {@link #DRAIN_TIMEOUT}) for the standbys to acknowledge what was shipped, and
     *                 release the lease; otherwise (shipping failed) stop at once and leave the lease counting, so the
     *                 lease guard fences the primary unless a restarted shipper hears from a standby or the coordinator
     */
    private static synchronized void shutdown(AdminServer admin, ShipperRole role, boolean graceful) {
        admin.close();
        if (graceful) {
            role.close(DRAIN_TIMEOUT);
        } else {
            role.abandon();
        }
    }
}
