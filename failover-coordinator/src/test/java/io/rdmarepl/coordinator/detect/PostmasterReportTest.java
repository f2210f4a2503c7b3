package io.rdmarepl.coordinator.detect;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.rdmarepl.coordinator.roles.HttpRoleClient;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
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
    private HttpServer shipper;
    private URI admin;
    private PostmasterReport report;

    @BeforeEach
    void start() throws IOException {
        shipper = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        shipper.createContext("/primary", exchange -> {
            requests.incrementAndGet();
            lastQuery = exchange.getRequestURI().getQuery();
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
            byte[] body = answer.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
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
    void shouldReportAnExitOnlyWhileTheShipperOfTheCurrentPrimarySaysSo() throws InterruptedException {
        assertThat(report.postmasterExited()).as("no target: nothing known").isFalse();
        answer = EXITED;
        Thread.sleep(30);
        assertThat(report.postmasterExited()).as("no target: the shipper is not asked").isFalse();

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
    void shouldHoldARequestUntilThePostmasterExitsAndReportTheExitAtOnce() throws InterruptedException {
        holds = true;
        report.target(admin);
        await("a first request", () -> requests.get() > 0);
        Thread.sleep(1_000);
        assertThat(lastQuery).isEqualTo("wait_ms=" + PostmasterReport.LONG_POLL.toMillis());
        // polled every 5 ms it would be about 200
        assertThat(requests.get()).as("requests in a second to a shipper holding them").isLessThanOrEqualTo(4);
        assertThat(exitsReported.get()).isZero();

        long exitNs = System.nanoTime();
        synchronized (changed) {
            answer = EXITED;
            changed.notifyAll();
        }
        await("the exit reported", () -> exitsReported.get() > 0);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - exitNs)).as("heard when the held answer came, not at its wait's end")
                .isLessThan(PostmasterReport.LONG_POLL.toMillis());
        assertThat(report.postmasterExited()).isTrue();
        Thread.sleep(50);
        assertThat(exitsReported.get()).as("the news runs onExit once, not at every confirming read").isEqualTo(1);
    }

    @Test
    void shouldLetAnExitReportAgeOutWhenTheShipperStopsAnswering() throws InterruptedException {
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
    void shouldTakeAShipperWithoutTheEndpointForOneThatSawNothing() throws InterruptedException {
        status = 404;
        answer = "{\"error\":\"no such path\"}";
        report.target(admin);
        Thread.sleep(50);
        assertThat(report.postmasterExited()).isFalse();
        assertThat(report.exit()).isNull();
    }

    @Test
    void shouldAskAShipperThatWatchesNoPostmasterOnlyNowAndThen() throws InterruptedException {
        answer = NOT_WATCHING;
        report.target(admin);
        await("a first answer", () -> requests.get() > 0);
        Thread.sleep(300);
        // every 5 ms it would be about 60
        assertThat(requests.get()).as("requests in 300 ms to a shipper that cannot watch").isLessThanOrEqualTo(2);
        assertThat(report.postmasterExited()).isFalse();

        answer = RUNNING;
        report.target(URI.create(admin + "/"));
        await("read at the interval again once a shipper watches", () -> requests.get() > 10);
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("%s within 10 s", what).isNegative();
            Thread.sleep(1);
        }
    }
}
