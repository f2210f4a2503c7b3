package io.rdmarepl.cli.coordinate;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmarepl.cli.admin.AdminServer;
import io.rdmarepl.coordinator.StateStores;
import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.machine.Coordinator;
import io.rdmarepl.coordinator.machine.FailoverRehearsal;
import io.rdmarepl.coordinator.store.StateStore;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * {@code rdmarepl coordinate --config coordinator.properties}: watches the primary and the standbys, fails
 * over when the primary fails, and serves {@code /status}, {@code /topology} (long poll), {@code /history},
 * {@code /metrics} and the token-guarded control actions the runbook commands use.
 */
@CommandLine.Command(name = "coordinate", mixinStandardHelpOptions = true,
        description = {"Run the failover coordinator: detect, fence, drain, promote; serve the topology to clients.",
                "Every configuration key, its default and meaning: docs/configuration/coordinator.md."})
public final class CoordinateCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(CoordinateCommand.class);

    @CommandLine.Option(names = "--config", required = true, description = "coordinator.properties")
    Path config;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final CountDownLatch stopped = new CountDownLatch(1);

    @Override
    public Integer call() throws Exception {
        CoordinatorConfig settings = CoordinatorConfig.load(config);
        rehearse(settings.failoverRehearsals());
        collectWhatStartingLeft();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        StateStore store = StateStores.open(settings);
        Coordinator coordinator;
        AdminServer admin;
        try {
            coordinator = new Coordinator(settings, store).start();
            CoordinatorMetrics.register(registry, coordinator);
            admin = CoordinatorEndpoint.adminServer(coordinator, settings, registry).start();
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            admin.close();
            coordinator.close();
            store.close();
            stopped.countDown();
        }, "rdmarepl-coordinate-shutdown"));
        spec.commandLine().getOut().printf("rdmarepl coordinate: cluster %s, %d members, store %s; admin http://%s:%d/status%n",
                settings.clusterName(), settings.members().size(), store.describe(), admin.address().getHostString(),
                admin.address().getPort());
        spec.commandLine().getOut().flush();
        stopped.await();
        return 0;
    }

    /**
     * One full collection after the rehearsals and before the coordinator starts, while no failover can be waiting on
     * it: what loading and the rehearsals left alive moves to the old generation now. Otherwise the first young
     * collection copies it (9 MB in 18-26 ms of the standby host's one vCPU in the host-per-role failover benchmark),
     * whenever the young generation first fills, possibly in the allocations of the first failover; later young
     * collections copy only what they find alive.
     */
    private static void collectWhatStartingLeft() {
        long startNs = System.nanoTime();
        System.gc();
        LOG.debug("collected what starting left in {} ms", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));
    }

    /**
     * Plays {@code rounds} failovers in memory ({@link FailoverRehearsal}) and the requests to the roles under them
     * ({@link RoleRequestWarmup}) before anything real starts, the coordinator's logs silenced meanwhile (their
     * transitions are no cluster's); one line says what it did. A rehearsal that fails is only a cold first failover:
     * the coordinator starts anyway.
     */
    private static void rehearse(int rounds) {
        if (rounds == 0) {
            return;
        }
        String done;
        try (QuietLogs quiet = QuietLogs.of("io.rdmarepl.coordinator")) {
            done = FailoverRehearsal.run(rounds).sentence() + "; " + RoleRequestWarmup.run(RoleRequestWarmup.REQUESTS);
        } catch (RuntimeException e) {
            done = "failover rehearsal failed (the first failover runs cold): " + e;
        }
        LOG.info("{}", done);
    }
}
