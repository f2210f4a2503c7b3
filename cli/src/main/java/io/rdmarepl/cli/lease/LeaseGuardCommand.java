package io.rdmarepl.cli.lease;

import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.shipper.lease.GuardSettings;
import io.rdmarepl.shipper.lease.LeaseGuardMain;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rdmarepl lease-guard --config shipper.properties}: the shipper's lease guard, started apart (its own systemd
 * unit, {@code fence.guard=external}). It watches the lease file of that shipper configuration and fences the primary
 * once the shipper's last contact with a standby or the coordinator is longer ago than {@code fence.lease.ms}, whether
 * the shipper runs or not; it watches on across shipper restarts until stopped (SIGTERM).
 */
@Command(name = "lease-guard",
        mixinStandardHelpOptions = true,
        description = {"Guard the shipper's lease: fence the primary (read-only, sessions ended) once the shipper's last word from a"
                + " standby or the coordinator is older than fence.lease.ms, even when the shipper is gone. Runs until stopped (SIGTERM).",
                "rdmarepl ship starts one by itself (fence.guard=process); run this one under its own supervisor with fence.guard=external."})
public final class LeaseGuardCommand implements Callable<Integer> {

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "The shipper's properties file (rdmarepl ship --config).")
    Path config;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean stopping;

    @Override
    public Integer call() throws Exception {
        ShipperConfig settings = ShipperConfig.load(config);
        if (settings.fenceLeaseMs() == 0) {
            throw new IllegalArgumentException("fence.lease.ms is 0 in " + config + " (or auto without admin.token): the shipper runs no"
                    + " lease, so there is nothing to guard");
        }
        GuardSettings guard = GuardSettings.of(settings);
        Thread main = Thread.currentThread();
        Thread hook = new Thread(() -> {
            stopping = true;
            try {
                stopped.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "rdmarepl-lease-guard-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        spec.commandLine().getOut().printf("rdmarepl lease-guard: %s, the lease of %s (%s)%n", guard.file(), settings.sourceName(),
                guard.primary());
        spec.commandLine().getOut().flush();
        try {
            return LeaseGuardMain.run(guard, false, () -> stopping || main.isInterrupted());
        } finally {
            stopped.countDown();
        }
    }

    /** Stops the command as SIGTERM would (tests). */
    public void stop() {
        stopping = true;
    }
}
