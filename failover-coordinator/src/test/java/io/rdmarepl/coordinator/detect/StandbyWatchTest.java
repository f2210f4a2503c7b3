package io.rdmarepl.coordinator.detect;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.rdmarepl.coordinator.roles.HttpRoleClient;
import io.rdmarepl.testsupport.Await;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The watch against a real HTTP server playing an applier's {@code /status}, which fails reads on request. */
@Timeout(30)
class StandbyWatchTest {
    private static final String STATUS = "{\"state\":\"streaming\",\"position\":{\"applied_lsn\":\"0/1000\"},"
            + "\"last_message_age_ms\":3,\"ring\":{\"backlog_bytes\":0,\"epoch\":1},\"lag_ms\":1}";

    private static final long SILENCE_MS = 20;
    private final AtomicInteger failuresToAnswer = new AtomicInteger();
    /** Whether /status/watch holds until released, then answers a ring silent for 25 ms; else it answers as /status. */
    private volatile boolean holdWatches;
    private final AtomicInteger heldWatches = new AtomicInteger();
    private final CountDownLatch releaseWatches = new CountDownLatch(1);
    /** How long every answer takes. */
    private volatile long answerDelayMs;
    /** Good answers wait here: closed, the mark a failed read left stays until the test has looked at it. */
    private volatile CountDownLatch goodAnswers = new CountDownLatch(0);
    private HttpServer applier;
    private StandbyWatch watch;

    @BeforeEach
    void start() throws IOException {
        applier = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        applier.createContext("/status/watch", exchange -> {
            if (holdWatches) {
                heldWatches.incrementAndGet();
                try {
                    releaseWatches.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                byte[] body = STATUS.replace("\"last_message_age_ms\":3", "\"last_message_age_ms\":25").getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
                return;
            }
            answer(exchange);
        });
        applier.createContext("/status", this::answer);
        applier.setExecutor(java.util.concurrent.Executors.newCachedThreadPool()); // slow answers side by side
        applier.start();
        watch = new StandbyWatch("pgb", URI.create("http://127.0.0.1:" + applier.getAddress().getPort()),
                new HttpRoleClient("token"), Duration.ofMillis(20), Duration.ofMillis(SILENCE_MS), Duration.ofMillis(100));
    }

    /** As an applier without the watch route answers both: at once. */
    private void answer(com.sun.net.httpserver.HttpExchange exchange) throws IOException {
        boolean fail = failuresToAnswer.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
        if (answerDelayMs > 0) {
            try {
                Thread.sleep(answerDelayMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (!fail) {
            try {
                goodAnswers.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        byte[] body = (fail ? "busy" : STATUS).getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(fail ? 503 : 200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @AfterEach
    void stop() {
        watch.close();
        applier.stop(0);
    }

    @Test
    void shouldKeepTheLastReportThroughAFailedReadAndGiveItUpAfterThree() {
        await("a first report", (v) -> v.reachable() && v.error() == null);

        failuresToAnswer.set(1);
        goodAnswers = new CountDownLatch(1); // after: a good answer already on its way must not wait out the read timeout
        StandbyView kept = await("the failed read marked", (v) -> v.error() != null);
        assertThat(kept.reachable()).as("reachable after one failed read").isTrue();
        assertThat(kept.appliedLsn()).isEqualTo("0/1000");
        assertThat(kept.error()).startsWith("last read failed: GET ").contains("answered 503");
        goodAnswers.countDown();
        await("the next answer clears the mark", (v) -> v.reachable() && v.error() == null);

        failuresToAnswer.set(1_000);
        StandbyView gone = await("unreachable after reads failed in a row", (v) -> !v.reachable());
        assertThat(gone.state()).isEqualTo("unknown");
    }

    @Test
    void shouldWaitLongerForASlowApplierWhenAFailoverNamesIt() {
        await("a first report", (v) -> v.reachable() && v.error() == null);
        answerDelayMs = 700; // over the watch's 400 ms (20 intervals) after its 100 ms hold, under the 2 s a named failover waits
        StandbyView lost = await("unreachable after slow reads", (v) -> !v.reachable());
        assertThat(lost.error()).contains("no answer within 400 ms");

        StandbyView fresh = watch.freshView(Duration.ofSeconds(2));
        assertThat(fresh.reachable()).as("%s", fresh).isTrue();
        assertThat(fresh.appliedLsn()).isEqualTo("0/1000");
        assertThat(watch.freshView(Duration.ofMillis(100)).reachable()).as("a read that does not wait long enough").isFalse();
    }

    @Test
    void shouldSayFramesComeWhileTheApplierHoldsTheWatchAndSilenceOnceItAnswers() {
        holdWatches = true;
        await("a first report", (v) -> v.reachable() && v.error() == null);
        Await.until("the applier holds a watch", Duration.ofSeconds(10), () -> heldWatches.get() > 0);
        // the applier would have answered a silence: through a hold longer than the threshold, frames still come
        Await.holds("the view says frames come while the applier holds the watch", Duration.ofMillis(3 * SILENCE_MS),
                () -> watch.view().heartbeatAgeMs() <= SILENCE_MS);

        releaseWatches.countDown();
        StandbyView silent = await("the silence the answer reports", (v) -> v.heartbeatAgeMs() > SILENCE_MS);
        assertThat(silent.heartbeatAgeMs()).isGreaterThanOrEqualTo(25);
        assertThat(silent.reachable()).isTrue();
    }

    private StandbyView await(String what, Predicate<StandbyView> done) {
        return Await.until(what, Duration.ofSeconds(10), watch::view, done);
    }
}
