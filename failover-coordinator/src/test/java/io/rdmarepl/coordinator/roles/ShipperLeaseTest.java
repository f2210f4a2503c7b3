package io.rdmarepl.coordinator.roles;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The latest moment a renewal could have reached the shipper: a renewal under way is waited for, a takeover counts. */
@Timeout(30)
class ShipperLeaseTest {
    private final CountDownLatch arrived = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicLong answeredNs = new AtomicLong();
    private HttpServer shipper;
    private URI admin;

    @BeforeEach
    void start() throws IOException {
        shipper = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        shipper.setExecutor(Executors.newCachedThreadPool());
        shipper.createContext("/lease", exchange -> {
            exchange.getRequestBody().readAllBytes();
            arrived.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = "{\"lease_ms\":2000}".getBytes(StandardCharsets.UTF_8);
            answeredNs.set(System.nanoTime());
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        shipper.start();
        admin = URI.create("http://127.0.0.1:" + shipper.getAddress().getPort());
    }

    @AfterEach
    void stop() {
        shipper.stop(0);
    }

    @Test
    void shouldWaitForARenewalUnderWayAndCountFromItsEnd() throws Exception {
        try (ShipperLease lease = new ShipperLease(new HttpRoleClient("t"), () -> true)) {
            lease.target(admin);
            assertThat(arrived.await(10, TimeUnit.SECONDS)).as("a renewal reached the shipper").isTrue();
            lease.target(null); // a failover starts: no renewal after this, but one is on its way
            CompletableFuture<Long> last = CompletableFuture.supplyAsync(lease::lastRenewalNs);
            release.countDown();
            assertThat(last.get(10, TimeUnit.SECONDS)).as("counted from the end of the renewal under way, not from before it")
                    .isGreaterThanOrEqualTo(answeredNs.get());
            assertThat(lease.lastAnswer().terms().leaseMs()).isEqualTo(2000);
        }
    }

    @Test
    void shouldRenewNothingWhileItsCoordinatorDoesNotLeadWhateverTheTarget() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean leading = new java.util.concurrent.atomic.AtomicBoolean();
        try (ShipperLease lease = new ShipperLease(new HttpRoleClient("t"), leading::get)) {
            release.countDown();
            lease.target(admin); // the coordinator's thread is held up: its tick has not taken the target back
            // a second of renewals that must not happen: ten renewal intervals
            io.rdmarepl.testsupport.Await.holds("no renewal while the store says another coordinator may lead",
                    java.time.Duration.ofSeconds(1), () -> arrived.getCount() == 1);

            leading.set(true);
            assertThat(arrived.await(10, TimeUnit.SECONDS)).as("renewed once it leads").isTrue();
        }
    }

    @Test
    void shouldCountTakingTheLeadAsARenewal() {
        try (ShipperLease lease = new ShipperLease(new HttpRoleClient("t"), () -> true)) {
            long before = System.nanoTime();
            lease.tookOver();
            assertThat(lease.lastRenewalNs()).as("the coordinator that led before may have renewed until now").isGreaterThanOrEqualTo(before);
        }
    }
}
