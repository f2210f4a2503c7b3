package io.rdmarepl.coordinator.machine;

import io.rdmarepl.coordinator.config.MemberConfig;
import io.rdmarepl.coordinator.fence.Fencer;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Once a second, makes every fenced member that answers writable again (restarted after a failover) read-only
 * again. Runs on its own thread, so a host that does not answer never holds the decision loop back; what it did
 * is handed to {@code record} for the history.
 */
final class FencedMemberGuard implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FencedMemberGuard.class);

    private final ScheduledExecutorService checker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "rdmarepl-refence");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * @param fenced the fenced members now (empty while this coordinator does not lead)
     * @param record receives the sentence of each re-fencing
     */
    FencedMemberGuard(Fencer fencer, Supplier<List<MemberConfig>> fenced, Consumer<String> record) {
        checker.scheduleWithFixedDelay(() -> {
            for (MemberConfig member : fenced.get()) {
                String done = fencer.refence(member);
                if (done != null) {
                    LOG.warn("{}", done);
                    record.accept(done);
                }
            }
        }, 1, 1, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        checker.shutdownNow();
    }
}
