package io.rdmarepl.coordinator.store;

import static io.rdmarepl.coordinator.store.StateStore.NOTHING_STORED;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.ZooKeeperEnsemble;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A leader whose ZooKeeper server loses its quorum without losing the connection (issue 21, scenario 3). Three server
 * processes; the coordinator is connected to a follower; the other two are frozen (SIGSTOP: their sockets stay open
 * and silent, as behind a partition). The follower keeps answering its client for syncLimit ticks (5 s here), while
 * the majority would expire the session after 4 s: the store must stop leading within half the session timeout of the
 * quorum's last answer, and say that what it reads is no fresher than that.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ZooKeeperStateStoreMinorityIT {
    private static final int SESSION_TIMEOUT_MS = 4000;
    private static final long WINDOW_MS = SESSION_TIMEOUT_MS / 2;
    /** A follower without its leader serves its clients this long: 10 ticks of 500 ms, longer than the session. */
    private static final ZooKeeperEnsemble.Timing TIMING = new ZooKeeperEnsemble.Timing(500, 10, 10);
    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperStateStoreMinorityIT.class);

    @Test
    void shouldStopLeadingWhenItsServerLosesTheQuorumThoughTheConnectionLives() throws Exception {
        Path directory = Files.createDirectories(Path.of("target", "zookeeper-minority").toAbsolutePath());
        try (ZooKeeperEnsemble ensemble = ZooKeeperEnsemble.startLocal(directory, 3, TIMING)) {
            ZooKeeperEnsemble.Server follower = ensemble.servers().stream().filter(s -> "follower".equals(ensemble.mode(s)))
                    .findFirst().orElseThrow();
            try (ZooKeeperStateStore store = ZooKeeperStateStore.open(ZooKeeperStoreSettings.of(follower.connectString(), "main",
                    "coord-a").withTimeouts(SESSION_TIMEOUT_MS, 1000))) {
                Await.until("coord-a leads", Duration.ofSeconds(10), store::isLeader);
                store.compareAndSet(NOTHING_STORED, States.initial("main"));

                long frozenNs = System.nanoTime();
                ensemble.servers().stream().filter(s -> s != follower).forEach(ensemble::suspend);

                // what the store can still see: the connection is up, and the server answers reads from what it has
                assertThat(store.read().version()).as("a server without its quorum still answers reads").isZero();
                long stoppedMs = Await.until("coord-a stops leading", Duration.ofMillis(WINDOW_MS + 700), () -> !store.isLeader());
                assertThat(ensemble.mode(follower)).as("the follower still serves: only the quorum's silence told")
                        .isEqualTo("follower");
                // its pings queue behind the unanswered syncs, so the client also hears nothing and disconnects at 2/3 of the
                // session timeout: whichever comes first
                assertThat(store.describe()).containsAnyOf("(no answer from the quorum for ", "(disconnected)");
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - store.knownAsOfNs()))
                        .as("what it reads is known as of the quorum's last answer, from before the freeze")
                        .isGreaterThanOrEqualTo(WINDOW_MS);
                assertThat(store.knownAsOfNs()).isLessThan(frozenNs);
                LOG.info("coord-a stopped leading {} ms after the other two servers froze", stoppedMs);

                ensemble.servers().stream().filter(s -> s != follower).forEach(ensemble::resume);
                Await.until("coord-a leads again once the quorum answers", Duration.ofSeconds(30), store::isLeader);
                assertThat(store.read().value()).isEqualTo(States.initial("main"));
            }
        }
    }
}
