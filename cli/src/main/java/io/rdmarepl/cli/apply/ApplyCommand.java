package io.rdmarepl.cli.apply;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmarepl.applier.apply.Applier;
import io.rdmarepl.applier.apply.ApplierStatus;
import io.rdmarepl.config.Activation;
import io.rdmarepl.applier.config.ApplierConfig;
import io.rdmarepl.applier.role.ApplierRole;
import io.rdmarepl.applier.role.StatusWatch;
import io.rdmarepl.cli.admin.AdminServer;
import io.rdmarepl.control.ApplierActivateAnswer;
import io.rdmarepl.control.ApplierRoutes;
import io.rdmarepl.control.ControlJson;
import io.rdmarepl.control.DeactivateAnswer;
import io.rdmarepl.control.DrainAnswer;
import io.rdmarepl.control.EpochRequest;
import io.rdmarepl.control.FollowAnswer;
import io.rdmarepl.control.PromoteAnswer;
import io.rdmarepl.format.Lsn;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rdmarepl apply --config applier.properties}: the standby's applier. Creates the ring, replays it
 * into the replica until SIGTERM, and serves /health, /status, /metrics and the token-guarded
 * {@code POST /activate}, {@code POST /drain} and {@code POST /promote} on the admin port. With
 * {@code activation=on-request} it only serves the admin port until the coordinator activates it.
 */
@Command(name = "apply",
        mixinStandardHelpOptions = true,
        description = {"Replay the ring into the replica PostgreSQL, exactly once, until stopped (SIGTERM).",
                "With activation=on-request, wait for the coordinator's POST /activate before touching the replica or the ring.",
                "Every configuration key, its default and meaning: docs/configuration/applier.md."})
public final class ApplyCommand implements Callable<Integer> {
    /** {@code GET /status/watch} requests held at once; one per coordinator is what they need. */
    static final int MAX_HELD_WATCHES = 8;

    @Option(names = "--config", required = true, paramLabel = "FILE",
            description = "Applier properties file; every key has a default, unknown keys are an error.")
    Path config;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile Runnable onStarted = () -> { };
    private volatile InetSocketAddress adminAddress;

    @Override
    public Integer call() throws Exception {
        ApplierConfig settings = ApplierConfig.load(config);
        warmFailoverAnswers();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        ApplierRole role = ApplierRole.create(settings, registry);
        AdminServer admin;
        try {
            admin = adminServer(role, registry).start();
        } catch (RuntimeException e) {
            role.close();
            throw e;
        }
        adminAddress = admin.address();
        Thread hook = new Thread(() -> shutdown(admin, role), "rdmarepl-apply-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        String endpoint = "http://" + admin.address().getHostString() + ":" + admin.address().getPort();
        if (settings.activation() == Activation.ON_REQUEST) {
            spec.commandLine().getOut().printf("rdmarepl apply: %s waits for the coordinator (POST %s/activate) before "
                            + "touching %s or creating %s; admin %s/status%n", settings.sourceName(), endpoint,
                    settings.replicaJdbcUrl(), settings.ringUri(), endpoint);
        } else {
            spec.commandLine().getOut().printf("rdmarepl apply: %s from %s into %s; admin %s/status%n",
                    settings.sourceName(), settings.ringUri(), settings.replicaJdbcUrl(), endpoint);
        }
        spec.commandLine().getOut().flush();
        onStarted.run();
        stopped.await();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running: it closes everything
        }
        shutdown(admin, role);
        return 0;
    }

    /**
     * The admin endpoint of an applier its host process started itself (demo, benchmarks): see
     * {@link #adminServer(ApplierRole, PrometheusMeterRegistry)}. An applier that {@code POST /activate} starts
     * later belongs to the wrapping role, which this form does not hand back: pass a role to close it.
     */
    public static AdminServer adminServer(Applier applier, PrometheusMeterRegistry registry) {
        return adminServer(ApplierRole.of(applier, registry), registry);
    }

    /**
     * The applier's admin endpoint, not started yet: {@code /health} (200 while waiting too), {@code /status}
     * ({@code state}; with an applier also {@code last_message_age_ms}, positions and ring), {@code /status/watch}
     * (the same, held until it changes: the coordinator's heartbeat watch, {@link StatusWatch}; one request thread per
     * held watch, so the control actions never queue behind one), {@code /metrics},
     * and the token-guarded {@code POST /activate}, {@code POST /drain} (from then on this standby no longer renews
     * the primary's lease), {@code POST /follow} (a drain called off: streaming and renewing again) and
     * {@code POST /promote} the coordinator calls, and {@code POST /deactivate} (back to waiting: a rejoin taken back). Address and token come from the applier's configuration ({@code admin.bind},
     * {@code admin.port}, {@code admin.token}).
     */
    public static AdminServer adminServer(ApplierRole role, PrometheusMeterRegistry registry) {
        ApplierConfig settings = role.config();
        Semaphore heldWatches = new Semaphore(MAX_HELD_WATCHES);
        return new AdminServer(new InetSocketAddress(settings.adminBind(), settings.adminPort()), settings.adminToken(),
                role::healthy, role::statusDocument, registry, 0)
                .query(ApplierRoutes.STATUS_WATCH, q -> statusWatch(role, watchQuery(q), heldWatches))
                .control(ApplierRoutes.ACTIVATE, body -> activate(role, body))
                .control(ApplierRoutes.DRAIN, body -> new DrainAnswer(Lsn.format(role.drain().get(60, TimeUnit.SECONDS))))
                .control(ApplierRoutes.FOLLOW, body -> {
                    role.follow();
                    return FollowAnswer.following();
                })
                .control(ApplierRoutes.PROMOTE, body -> promote(role, body))
                .control(ApplierRoutes.DEACTIVATE, body -> new DeactivateAnswer(ApplierRole.WAITING, role.deactivate()));
    }

    /**
     * {@code GET /status/watch}, held while fewer than {@link #MAX_HELD_WATCHES} are held: the route needs no token,
     * and each held request keeps a thread; past the cap it is answered at once (the watcher then reads at its pace).
     */
    static Map<String, Object> statusWatch(ApplierRole role, StatusWatch.Query query, Semaphore holds) throws InterruptedException {
        if (holds.tryAcquire()) {
            try {
                StatusWatch.await(role, query);
            } finally {
                holds.release();
            }
        }
        return role.statusDocument();
    }

    /** @throws IllegalArgumentException (answered 400) naming the query parameter that is missing or wrong */
    static StatusWatch.Query watchQuery(Map<String, String> query) {
        String seen = required(query, "seen");
        if (!seen.equals("heard") && !seen.equals("silent")) {
            throw new IllegalArgumentException("seen must be heard or silent, got " + seen);
        }
        required(query, "silence_ms");
        required(query, "wait_ms");
        return new StatusWatch.Query(AdminServer.longParameter(query, "silence_ms", 0, 1, 600_000), seen.equals("silent"),
                required(query, "state"), AdminServer.longParameter(query, "wait_ms", 0, 0, StatusWatch.MAX_WAIT_MS));
    }

    private static String required(Map<String, String> query, String name) {
        String value = query.get(name);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("missing query parameter " + name);
        }
        return value;
    }

    /**
     * {@code POST /activate}, body optionally {@code {"epoch": N}}: starts following (a fresh ring at the
     * configured URI, created at epoch N when given).
     */
    private static ApplierActivateAnswer activate(ApplierRole role, String body) {
        ApplierStatus status = role.activate(optional(EpochRequest.parse(body)));
        return new ApplierActivateAnswer(status.state().displayName(), status.ringUri(), status.ringEpoch());
    }

    /**
     * {@code POST /promote}, body optionally {@code {"epoch": N}}: from then on the ring refuses frames of
     * older epochs (a fenced shipper's), and the replica takes writes.
     */
    private static PromoteAnswer promote(ApplierRole role, String body) throws Exception {
        OptionalInt epoch = optional(EpochRequest.parse(body));
        if (epoch.isPresent()) {
            role.epoch(epoch.getAsInt());
        }
        Map<String, Long> sequences = role.promote(Duration.ofSeconds(30));
        String appliedLsn = Lsn.format(role.appliedLsn());
        return PromoteAnswer.promoted(appliedLsn, sequences);
    }

    /**
     * Maps the failover routes' JSON once at start ({@code POST /drain}'s and {@code /promote}'s answers, the epoch
     * request): Jackson builds a record's serializer on its first use, which would otherwise happen on a failover's way.
     */
    static void warmFailoverAnswers() {
        ControlJson.warm(new DrainAnswer(Lsn.format(0)), PromoteAnswer.promoted(Lsn.format(0), Map.of()), FollowAnswer.following());
        optional(EpochRequest.parse(new EpochRequest(1).toJson()));
    }

    private static OptionalInt optional(EpochRequest request) {
        return request.epoch() == null ? OptionalInt.empty() : OptionalInt.of(request.epoch());
    }

    /** Stops the command as SIGTERM would (tests). */
    public void stop() {
        stopped.countDown();
    }

    /** Runs {@code action} once the admin endpoint is up (and the applier, unless it waits for activation) (tests). */
    public ApplyCommand onStarted(Runnable action) {
        this.onStarted = action;
        return this;
    }

    /** Where the admin endpoint listens, once started (tests). */
    public InetSocketAddress adminAddress() {
        return adminAddress;
    }

    private static synchronized void shutdown(AdminServer admin, ApplierRole role) {
        admin.close();
        role.close();
    }
}
