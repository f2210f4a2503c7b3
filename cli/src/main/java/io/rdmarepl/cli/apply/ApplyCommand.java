package io.rdmarepl.cli.apply;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmarepl.applier.apply.Applier;
import io.rdmarepl.applier.config.ApplierConfig;
import io.rdmarepl.cli.admin.AdminServer;
import io.rdmarepl.format.Lsn;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rdmarepl apply --config applier.properties}: the standby's applier. Creates the ring, replays it
 * into the replica until SIGTERM, and serves /health, /status, /metrics and the token-guarded
 * {@code POST /drain} and {@code POST /promote} on the admin port.
 */
@Command(name = "apply",
        mixinStandardHelpOptions = true,
        description = {"Replay the ring into the replica PostgreSQL, exactly once, until stopped (SIGTERM).",
                "Every configuration key, its default and meaning: see the README (Configuration, rdmarepl apply)."})
public final class ApplyCommand implements Callable<Integer> {

    @Option(names = "--config", required = true, paramLabel = "FILE",
            description = "Applier properties file; every key has a default, unknown keys are an error.")
    Path config;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile Runnable onStarted = () -> { };

    @Override
    public Integer call() throws Exception {
        ApplierConfig settings = ApplierConfig.load(config);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Applier applier = Applier.start(settings, registry);
        AdminServer admin;
        try {
            admin = adminServer(applier, registry).start();
        } catch (RuntimeException e) {
            applier.close();
            throw e;
        }
        Thread hook = new Thread(() -> shutdown(admin, applier), "rdmarepl-apply-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        spec.commandLine().getOut().printf("rdmarepl apply: %s from %s into %s; admin http://%s:%d/status%n",
                settings.sourceName(), settings.ringUri(), settings.replicaJdbcUrl(), admin.address().getHostString(),
                admin.address().getPort());
        spec.commandLine().getOut().flush();
        onStarted.run();
        stopped.await();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running: it closes everything
        }
        shutdown(admin, applier);
        return 0;
    }

    /**
     * The applier's admin endpoint, not started yet: {@code /health}, {@code /status} (with
     * {@code last_message_age_ms}), {@code /metrics}, and the token-guarded {@code POST /drain} and
     * {@code POST /promote} the coordinator calls. Address and token come from the applier's configuration
     * ({@code admin.bind}, {@code admin.port}, {@code admin.token}). Used by this command and by the demo
     * and benchmarks, which run the applier in their own process.
     */
    public static AdminServer adminServer(Applier applier, PrometheusMeterRegistry registry) {
        ApplierConfig settings = applier.config();
        return new AdminServer(new InetSocketAddress(settings.adminBind(), settings.adminPort()), settings.adminToken(),
                applier::healthy, applier::statusDocument, registry)
                .control("/drain", body -> Map.of("applied_lsn", Lsn.format(applier.drain().get(60, TimeUnit.SECONDS))))
                .control("/promote", body -> promote(applier, body));
    }

    /**
     * {@code POST /promote}, body optionally {@code {"epoch": N}}: from then on the ring refuses frames of
     * older epochs (a fenced shipper's), and the replica takes writes.
     */
    private static Map<String, Object> promote(Applier applier, String body) throws Exception {
        if (body != null && !body.isBlank()) {
            com.fasterxml.jackson.databind.JsonNode epoch = new com.fasterxml.jackson.databind.ObjectMapper().readTree(body).get("epoch");
            if (epoch != null) {
                if (!epoch.canConvertToInt() || epoch.asInt() < 1) {
                    throw new IllegalArgumentException("epoch must be a positive integer, got " + epoch);
                }
                applier.epoch(epoch.asInt());
            }
        }
        return Map.of("state", "promoted", "applied_lsn", Lsn.format(applier.status().appliedLsn()),
                "sequences", applier.promote(Duration.ofSeconds(30)));
    }

    /** Stops the command as SIGTERM would (tests). */
    public void stop() {
        stopped.countDown();
    }

    /** Runs {@code action} once the applier and admin endpoint are up (tests). */
    public ApplyCommand onStarted(Runnable action) {
        this.onStarted = action;
        return this;
    }

    private static synchronized void shutdown(AdminServer admin, Applier applier) {
        admin.close();
        applier.close();
    }
}
