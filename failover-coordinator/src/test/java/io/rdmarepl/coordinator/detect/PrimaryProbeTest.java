package io.rdmarepl.coordinator.detect;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.testsupport.Await;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The probe against a port nothing listens on: every probe is a refused connection, counted as it fails. */
@Timeout(30)
class PrimaryProbeTest {

    @Test
    void shouldProbeNothingWhileHeldAndProbeAtOnceWhenResumed() throws IOException {
        AtomicInteger failed = new AtomicInteger();
        try (PrimaryProbe probe = new PrimaryProbe("jdbc:postgresql://127.0.0.1:" + closedPort() + "/postgres", "u", "p",
                Duration.ofMillis(5), Duration.ofMillis(500), () -> true, failed::incrementAndGet)) {
            Await.until("a few refused probes", Duration.ofSeconds(10), () -> failed.get() > 3);

            probe.hold();
            int afterHold = failed.get() + 1; // a probe under way when the hold came may still fail
            // a rate, so a window: every 5 ms it would be about 40
            Await.holds("no probe while held", Duration.ofMillis(200), () -> failed.get() <= afterHold);
            assertThat(probe.view().failures()).as("what was seen stands").isGreaterThan(3);

            probe.resume();
            Await.until("probing again once resumed", Duration.ofSeconds(10), () -> failed.get() > afterHold + 3);
        }
    }

    /** A port free a moment ago: connections to it are refused. */
    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
