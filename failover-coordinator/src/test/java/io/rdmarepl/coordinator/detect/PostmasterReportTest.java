package io.rdmarepl.coordinator.detect;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The report against a real HTTP server playing a shipper's {@code GET /primary}, whose answer the test sets; when
 * {@link #holds}, the server holds a "running" answer for the request's {@code wait_ms} or until the answer changes,
 * as the shipper does.
 */
@Timeout(30)
class PostmasterReportTest {
    private static final String RUNNING = "{\"shipping\":true,\"alive\":true,\"postmaster_exited\":false,"
            + "\"postmaster\":{\"pid\":4711,\"exited\":false,\"watch\":\"watching\"}}";
    private static final String EXITED = "{\"shipping\":true,\"alive\":false,\"postmaster_exited\":true,\"postmaster\":"
            + "{\"pid\":4711,\"exited\":true,\"watch\":\"exited: process 4711 exited (state Z)\",\"exit\":\"process 4711 exited (state Z)\"}}";
    /** From a shipper that does not send {@code exit} yet. */
    private static final String EXITED_WATCH_ONLY = "{\"shipping\":true,\"alive\":false,\"postmaster_exited\":true,"
            + "\"postmaster\":{\"pid\":4711,\"exited\":true,\"watch\":\"exited: process 4711 is gone\"}}";

    private static final String NOT_WATCHING = "{\"shipping\":true,\"alive\":true,\"postmaster_exited\":false,"
            + "\"postmaster\":{\"pid\":null,\"exited\":false,\"watch\":\"none: the primary's backend process 88 is not visible from this host\"}}";

    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger exitsReported = new AtomicInteger();
    private final Object changed = new Object();
    private volatile boolean holds;
    private volatile String lastQuery;
    private volatile String answer = RUNNING;
    private volatile int status = 200;
    /** While set, each request waits for it to open, then gets the answer that stood when it came. */
    private volatile CountDownLatch gate;
    private HttpServer shipper;
    private URI admin;
    private PostmasterReport report;

    @BeforeEach
    void start() throws IOException {
        shipper = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        shipper.createContext("/primary", exchange -> {
            byte[] arrivedWith = answer.getBytes(StandardCharsets.UTF_8);
            CountDownLatch held = gate;
            requests.incrementAndGet();
            lastQuery = exchange.getRequestURI().getQuery();
            if (held != null) { // answered as it stood when the request came, once the test opens the gate
                try {
                    held.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                answerWith(exchange, arrivedWith);
                return;
            }
            if (holds) {
                long waitMs = Long.parseLong(lastQuery.replace("wait_ms=", ""));
                long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
                synchronized (changed) {
                    for (long leftNs = deadlineNs - System.nanoTime(); answer.equals(RUNNING) && leftNs > 0; leftNs = deadlineNs - System.nanoTime()) {
                        try {
                            TimeUnit.NANOSECONDS.timedWait(changed, leftNs);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            break;
                        }
                    }
                }
            }
            answerWith(exchange, answer.getBytes(StandardCharsets.UTF_8));
        });
        // a thread per request: held requests must not hold up the next one
        shipper.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        shipper.start();
        admin = URI.create("http://127.0.0.1:" + shipper.getAddress().getPort());
        report = new PostmasterReport(new HttpRoleClient("token"), Duration.ofMillis(5), exitsReported::incrementAndGet);
    }

    @AfterEach
    void stop() {
        report.close();
        shipper.stop(0);
    }

    @Test
    void shouldReportAnExitOnlyWhileTheShipperOfTheCurrentPrimarySaysSo() {
        assertThat(report.postmasterExited()).as("no target: nothing known").isFalse();
        answer = EXITED;
        // nothing to wait for: with no target nothing may happen, watched over 20 of the report's 5 ms intervals
        Await.holds("no target: the shipper is not asked and nothing is reported", Duration.ofMillis(100),
                () -> requests.get() == 0 && !report.postmasterExited());

        report.target(admin);
        await("the exit reported", report::postmasterExited);
        assertThat(report.exit()).isEqualTo("process 4711 exited (state Z)");

        answer = RUNNING;
        await("a running postmaster reported again (the primary restarted)", () -> !report.postmasterExited());
        assertThat(report.exit()).isNull();

        answer = EXITED;
        await("the exit reported again", report::postmasterExited);
        report.target(null);
        assertThat(report.postmasterExited()).as("another primary (none): the old report is dropped at once").isFalse();
    }

    @Test
    void shouldHoldARequestUntilThePostmasterExitsAndReportTheExitAtOnce() {
        holds = true;
        report.target(admin);
        await("a first request", () -> requests.get() > 0);
        assertThat(lastQuery).isEqualTo("wait_ms=" + PostmasterReport.LONG_POLL.toMillis());
        // a rate, so a window: polled every 5 ms it would be about 200 requests in the second
        Await.holds("at most 4 requests in a second to a shipper holding them, and no exit reported", Duration.ofSeconds(1),
                () -> requests.get() <= 4 && exitsReported.get() == 0);

        long exitNs = System.nanoTime();
        synchronized (changed) {
            answer = EXITED;
            changed.notifyAll();
        }
        await("the exit reported", () -> exitsReported.get() > 0);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - exitNs)).as("heard when the held answer came, not at its wait's end")
                .isLessThan(PostmasterReport.LONG_POLL.toMillis());
        assertThat(report.postmasterExited()).isTrue();
        int confirming = requests.get() + 5;
        await("five more reads confirming the exit", () -> requests.get() >= confirming);
        assertThat(exitsReported.get()).as("the news runs onExit once, not at every confirming read").isEqualTo(1);
    }

    @Test
    void shouldSayWhileTheShipperIsFencedAndForgetAnAnswerAskedForBeforeALift() throws Exception {
        answer = RUNNING.replace("}}", "},\"fenced\":true}");
        report.target(admin);
        await("the fence reported", report::shipperFenced);
        answer = RUNNING;
        await("no fence once the shipper ships again", () -> !report.shipperFenced());

        answer = RUNNING.replace("}}", "},\"fenced\":true}");
        CountDownLatch first = new CountDownLatch(1);
        gate = first;
        int before = requests.get();
        await("a request held with the fence standing", () -> requests.get() > before);
        answer = RUNNING;
        report.fenceLifted();
        CountDownLatch next = new CountDownLatch(1);
        gate = next;
        first.countDown();
        await("the held answer read and the next request held", () -> requests.get() > before + 1);
        assertThat(report.shipperFenced()).as("the held answer was asked for before the lift: stale").isFalse();
        next.countDown();
        gate = null;
    }

    @Test
    void shouldLetAnExitReportAgeOutWhenTheShipperStopsAnswering() {
        answer = EXITED_WATCH_ONLY;
        report.target(admin);
        await("the exit reported", report::postmasterExited);
        assertThat(report.exit()).as("the watch's words without its prefix").isEqualTo("process 4711 is gone");
        status = 503;
        long silentFromNs = System.nanoTime();
        await("the report ages out", () -> !report.postmasterExited());
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - silentFromNs))
                .as("kept for a second: a shipper often exits right after it reported, before detection used it")
                .isGreaterThanOrEqualTo(900);
    }

    @Test
    void shouldTakeAShipperWithoutTheEndpointForOneThatSawNothing() {
        status = 404;
        answer = "{\"error\":\"no such path\"}";
        report.target(admin);
        // the second request follows the first answer (the 404): that answer was read
        await("a second request, after the 404", () -> requests.get() >= 2);
        assertThat(report.postmasterExited()).isFalse();
        assertThat(report.exit()).isNull();
    }

    @Test
    void shouldAskAShipperThatWatchesNoPostmasterOnlyNowAndThen() {
        answer = NOT_WATCHING;
        report.target(admin);
        await("a first answer", () -> requests.get() > 0);
        // a rate, so a window: every 5 ms it would be about 60
        Await.holds("at most 2 requests in 300 ms to a shipper that cannot watch, and no exit reported", Duration.ofMillis(300),
                () -> requests.get() <= 2 && !report.postmasterExited());

        answer = RUNNING;
        report.target(URI.create(admin + "/"));
        await("read at the interval again once a shipper watches", () -> requests.get() > 10);
    }

    @Test
    void shouldAskNothingWhileHeldAndAskAtOnceWhenResumed() {
        answer = EXITED;
        report.target(admin);
        await("the exit reported", report::postmasterExited);
        await("read again while the exit stands", () -> requests.get() > 3);

        report.hold();
        int afterHold = requests.get() + 1; // a read under way when the hold came may still arrive
        // a rate, so a window: every 5 ms it would be about 40
        Await.holds("no request while held, the exit still known", Duration.ofMillis(200),
                () -> requests.get() <= afterHold && report.postmasterExited());

        report.resume();
        await("read again once resumed", () -> requests.get() > afterHold + 3);
    }

    private static void await(String what, Await.Condition condition) {
        Await.until(what, Duration.ofSeconds(10), condition);
    }

    private void answerWith(HttpExchange exchange, byte[] body) throws IOException {
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
