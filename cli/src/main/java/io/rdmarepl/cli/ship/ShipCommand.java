package io.rdmarepl.cli.ship;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmarepl.cli.admin.AdminServer;
import io.rdmarepl.shipper.Shipper;
import io.rdmarepl.shipper.config.ShipperConfig;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rdmarepl ship --config shipper.properties}: the sidecar beside the primary. Captures the
 * primary's changes and writes them into every standby's ring until SIGTERM, then stops capture,
 * lets the standby handlers drain and exits. Serves /health, /status and /metrics.
 */
@Command(name = "ship",
        mixinStandardHelpOptions = true,
        description = {"Capture the primary's changes and ship them into the standbys' rings, until stopped (SIGTERM).",
                "Every configuration key, its default and meaning: see the README (Configuration, rdmarepl ship)."})
public final class ShipCommand implements Callable<Integer> {

    @Option(names = "--config", required = true, paramLabel = "FILE",
            description = "Shipper properties file; every key has a default, unknown keys are an error.")
    Path config;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final CountDownLatch stopped = new CountDownLatch(1);

    /** How long SIGTERM waits for the standbys to acknowledge what was shipped, so the slot confirms it. */
    static final java.time.Duration DRAIN_TIMEOUT = java.time.Duration.ofSeconds(5);

    @Override
    public Integer call() throws Exception {
        ShipperConfig settings = ShipperConfig.load(io.rdmarepl.cli.ConfigFiles.read(config));
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Shipper shipper = Shipper.start(settings, registry);
        AdminServer admin;
        try {
            admin = adminServer(settings, shipper, registry).start();
        } catch (RuntimeException e) {
            shipper.close();
            throw e;
        }
        Thread hook = new Thread(() -> shutdown(admin, shipper, true), "rdmarepl-ship-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        spec.commandLine().getOut().printf("rdmarepl ship: %s slot %s to %d standby(s); admin http://%s:%d/status%n",
                settings.sourceName(), settings.slotName(), settings.standbys().size(),
                admin.address().getHostString(), admin.address().getPort());
        spec.commandLine().getOut().flush();
        while (!stopped.await(100, TimeUnit.MILLISECONDS)) {
            String failure = shipper.failure();
            if (failure != null) {
                Runtime.getRuntime().removeShutdownHook(hook);
                shutdown(admin, shipper, false);
                throw new IllegalStateException(failure + " (restart the shipper: it resumes from what the standbys acknowledged)");
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running: it closes everything
        }
        shutdown(admin, shipper, true);
        return 0;
    }

    /**
     * The shipper's admin endpoint, not started yet: {@code /health}, {@code /status}, {@code /metrics}, and the
     * token-guarded {@code POST /fence} the coordinator calls (stops shipping and heartbeats for good) and
     * {@code POST /lease} it renews the shipper's lease with ({@code fence.lease.ms}). Address and
     * token: {@code admin.address}, {@code admin.token}. Used by this command and by the demo and benchmarks,
     * which run the shipper in their own process.
     */
    public static AdminServer adminServer(ShipperConfig settings, Shipper shipper, PrometheusMeterRegistry registry) {
        return new AdminServer(settings.adminAddress(), settings.adminToken(), shipper::healthy, shipper::status, registry)
                .control("/fence", body -> {
                    shipper.fence("fenced through the admin endpoint" + (body == null || body.isBlank() ? "" : ": " + body.strip()));
                    return java.util.Map.of("state", "fenced");
                })
                .control("/lease", body -> {
                    shipper.renewLease();
                    return java.util.Map.of("lease_ms", settings.fenceLeaseMs());
                });
    }

    /** Stops the command as SIGTERM would (tests). */
    public void stop() {
        stopped.countDown();
    }

    /** @param graceful wait (up to {@link #DRAIN_TIMEOUT}) for the standbys to acknowledge what was shipped */
    private static synchronized void shutdown(AdminServer admin, Shipper shipper, boolean graceful) {
        admin.close();
        if (graceful) {
            shipper.close(DRAIN_TIMEOUT);
        } else {
            shipper.close();
        }
    }
}
